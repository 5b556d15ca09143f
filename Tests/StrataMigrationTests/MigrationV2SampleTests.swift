import Foundation
import Strata
import StrataStores
import StrataTestSupport
import StrataXcodeModel
import Testing

/// Apple's MigrationV2 sample: two Xcode 3 models, and a mapping model whose `Cuisine` mapping
/// runs the app's `CuisineMigrationPolicy` and whose `Chef` mapping splits names with the app's
/// `MigrationFunctions` class — both written here in Swift, as an app moving to Strata would.
/// No store ships with the sample, so the test writes one with the old model.
@Suite struct MigrationV2SampleTests {
    static let folder = "fruitsamples-MigrationV2/Models/"

    /// One `Cuisine` per cuisine name a recipe gives, shared by the recipes of that cuisine.
    struct CuisineMigrationPolicy: MigrationPolicy {
        func createDestinationInstances(for source: MigrationSourceInstance, in migration: MigrationPolicyContext)
            throws
        {
            let name = try source.value(forKey: "cuisine")
            guard !name.isNull else { return }
            if let cuisine = migration.destinationInstances(ofEntity: "Cuisine").first(where: {
                $0.value(forKey: "name") == name
            }) {
                try migration.associate(source, with: cuisine)
            } else {
                try migration.makeDestinationInstance(for: source)
            }
        }
    }

    static func bundle() throws -> XcodeVersionedModel {
        try XcodeVersionedModel(contentsOf: AppleFixtures.url(folder + "Migration.xcdatamodeld"))
    }

    /// Writes three chefs, each with one recipe (the old model's chef has one), two of them
    /// French, with an ingredient each. Every chef has a last name: the new model requires one.
    static func writeOldStore(at url: URL, model: ManagedObjectModel) throws {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.sqlite])
        let store = try coordinator.addStore(.sqlite(at: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let dishes = [
                ("Julia Child", "Boeuf bourguignon", "French", "beef"),
                ("Jamie Oliver", "Fish and chips", "British", "cod"),
                ("Auguste Escoffier", "Pêche Melba", "French", "peaches"),
            ]
            for (chefName, recipeName, cuisine, ingredientName) in dishes {
                let chef = try context.insertNewObject(forEntityName: "Chef")
                try chef.setValue(.string(chefName), forKey: "name")
                let recipe = try context.insertNewObject(forEntityName: "Recipe")
                try recipe.setValue(.string(recipeName), forKey: "name")
                try recipe.setValue(.string(cuisine), forKey: "cuisine")
                try recipe.setObject(chef, forKey: "chef")
                let ingredient = try context.insertNewObject(forEntityName: "Ingredient")
                try ingredient.setValue(.string(ingredientName), forKey: "name")
                try ingredient.setValue("1 kg", forKey: "amount")
                try ingredient.setObject(recipe, forKey: "recipes")
            }
            try context.save()
        }
        try coordinator.remove(store)
    }

    @Test func theSamplesMappingModelRunsWithItsPolicyAndFunctionsInSwift() throws {
        let bundle = try Self.bundle()
        let (old, new) = (try bundle.model(named: "Migration_Old"), try bundle.model(named: "Migration_New"))
        let mapping = try bundle.mappingModel(
            contentsOf: AppleFixtures.url(Self.folder + "MappingModel.xcmappingmodel"))
        let directory = try TemporaryDirectory()
        let url = directory.file("recipes.sqlite")
        try Self.writeOldStore(at: url, model: old)

        try MigrationManager(
            sourceModel: old, destinationModel: new,
            policies: [
                "CuisineMigrationPolicy": CuisineMigrationPolicy(),
                "MigrationFunctions": MigrationFunctionTests.NameFunctions(),
            ]
        ).migrateStore(at: url, type: .sqlite, mapping: mapping)

        let labels = ["Chef": "lastName", "Cuisine": "name", "Recipe": "name", "Ingredient": "name"]
        let chefs = try AppleFixtures.objects(of: "Chef", in: url, model: new, label: labels)
        #expect(
            Set(chefs.map { "\($0["firstName"] ?? "") \($0["lastName"] ?? "") \($0["recipes"] ?? "")" }) == [
                "Julia Child [\"Boeuf bourguignon\"]", "Jamie Oliver [\"Fish and chips\"]",
                "Auguste Escoffier [\"Pêche Melba\"]",
            ])
        let cuisines = try AppleFixtures.objects(of: "Cuisine", in: url, model: new, label: labels)
        #expect(
            Set(cuisines.map { "\($0["name"] ?? ""): \($0["recipes"] ?? "")" }) == [
                "French: [\"Boeuf bourguignon\", \"Pêche Melba\"]", "British: [\"Fish and chips\"]",
            ])
        let recipes = try AppleFixtures.objects(of: "Recipe", in: url, model: new, label: labels)
        #expect(recipes.count == 3)
        #expect(recipes.allSatisfy { $0["rating"] == "3" && $0["directions"] == "-" })
        #expect(Set(recipes.map { $0["ingredients"] ?? "" }) == ["[\"beef\"]", "[\"cod\"]", "[\"peaches\"]"])
        let ingredients = try AppleFixtures.objects(of: "Ingredient", in: url, model: new, label: labels)
        #expect(Set(ingredients.map { $0["recipe"] ?? "" }) == ["Boeuf bourguignon", "Fish and chips", "Pêche Melba"])
    }
}
