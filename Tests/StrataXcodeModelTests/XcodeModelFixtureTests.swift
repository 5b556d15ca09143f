import Foundation
import Strata
import StrataSQLite
import StrataXcodeModel
import Testing

/// Every model file among the Apple-made fixtures loads as expected.
@Suite struct XcodeModelFixtureTests {
    /// Every Xcode model `contents` file in the fixtures. All load and freeze except MomXML's
    /// (tested below), whose transformable attribute names no transformer.
    static let modelFiles = FixturePaths.modelContentsFiles

    @Test func fixturesAreCopiedIntoTheProject() {
        #expect(FileManager.default.fileExists(atPath: FixturePaths.url("SOURCES.md").path))
        #expect(Self.modelFiles.count == 20)
    }

    @Test(arguments: modelFiles.filter { !$0.hasPrefix("phimage-MomXML/") })
    func everyXcodeModelFileLoadsAndFreezes(_ path: String) throws {
        let model = try XcodeModel.load(contentsOf: FixturePaths.url(path))
        #expect(!model.isFrozen, "a loaded model stays editable")
        #expect(model.validationIssues().isEmpty)
        try model.freeze()
        #expect(!model.schema.entities.isEmpty)
    }

    /// MomXML's model has a composite whose third element nests an empty composite: both are read
    /// with their elements, and validation finds nothing wrong with them.
    @Test func compositeAttributesReadTheirElements() throws {
        let path = FixturePaths.url("phimage-MomXML/Tests/Model.xcdatamodeld/Model.xcdatamodel/contents")
        let model = try XcodeModel.load(contentsOf: path)
        let composite = try #require(model.entity(named: "Produit")?.attribute(named: "attribute1"))
        #expect(composite.type == .composite && composite.isOptional)
        #expect(composite.elements.map(\.name) == ["one", "two", "three"])
        #expect(composite.elements.map(\.type) == [.integer16, .string, .composite])
        #expect(composite.elements[0].defaultValue == .integer16(0))
        #expect(composite.elements[2].elements.isEmpty)
        #expect(!model.validationIssues().contains { $0.kind == .invalidComposite })
    }

    /// `model.xml` is a hand-edited Xcode file (see SOURCES.md §7): it loads, and validation
    /// names its real problems: an index with no elements, and two fetched properties whose
    /// predicate is the bare word `predicate`, which is not a predicate.
    @Test func handEditedMomXMLModelLoadsWithItsIndexProblem() throws {
        let model = try XcodeModel.load(contentsOf: FixturePaths.url("phimage-MomXML/Tests/model.xml"))
        let issues = model.validationIssues()
        #expect(issues.map(\.kind) == [.emptyIndex, .invalidPredicate, .invalidPredicate])
        #expect(issues.dropFirst().map(\.propertyName) == ["fetchedProperty", "fetchedProperty1"])
        #expect(issues.first?.entityName == "Commande" && issues.first?.propertyName == "byPropertyIndex1")
        let client = try #require(model.entity(named: "Client"))
        #expect(client.fetchIndexes.isEmpty, "the expression index is skipped")
        #expect(client.attribute(named: "commandeCount")?.derivationExpression == "client_commande.@count")
        let produit = try #require(model.entity(named: "Produit"))
        #expect(produit.fetchedProperties.map(\.name) == ["fetchedProperty", "fetchedProperty1"])
        #expect(produit.fetchedProperties[0].destinationEntityName == "Produit")
        #expect(produit.fetchedProperties[1].predicateFormat == "predicate1")
        let commande = try #require(model.entity(named: "Commande"))
        #expect(
            commande.fetchIndexes[0].elements == [
                .init(propertyName: "id"), .init(propertyName: "note", isAscending: false),
            ])
    }

    /// `model2.xml` is a hand-edited Xcode file whose `SetLog` constraints name properties the
    /// entity does not have.
    @Test func handEditedMomXMLModel2LoadsWithItsConstraintProblems() throws {
        let model = try XcodeModel.load(contentsOf: FixturePaths.url("phimage-MomXML/Tests/model2.xml"))
        let issues = model.validationIssues()
        #expect(issues.map(\.kind) == Array(repeating: .unknownConstraintProperty, count: 4))
        #expect(issues.map(\.propertyName) == ["iD", "comma", "separated", "properties"])
        #expect(
            model.entity(named: "SetLog")?.uniquenessConstraints == [["iD"], ["comma", "separated", "properties"]])
        #expect(model.entity(named: "Lift")?.isAbstract == true)
        #expect(model.entity(named: "SSLift")?.superentityName == "Lift")
        #expect(model.entity(named: "Workout")?.relationships[0].isOrdered == true)
        #expect(model.entity(named: "Workout")?.relationships[0].inverseName == nil)
    }

    /// Xcode 3's binary models: Apple's 2010 Recipes store records the version hashes of the
    /// model its sample ships, and the model read from the `elements` archive has them.
    @Test(arguments: [
        "fruitsamples-iPhoneCoreDataRecipes/Recipes.xcdatamodel",
        "fruitsamples-iPhoneCoreDataRecipes/DesktopRecipes/Recipes.xcdatamodel",
    ])
    func anXcode3ModelHasTheHashesItsStoreRecords(_ path: String) throws {
        let model = try XcodeModel.load(contentsOf: FixturePaths.url(path))
        try model.freeze()
        let directory = try TemporaryDirectory()
        let store = try directory.copyStore("fruitsamples-iPhoneCoreDataRecipes/RecipeData/Recipes.sqlite")
        let metadata = try #require(try StoreType.sqlite.metadata(ofFileAt: store))
        #expect(model.schema.entityVersionHashes == metadata.versionHashes)
        let ingredient = try #require(model.entity(named: "Ingredient"))
        #expect(ingredient.attributes.map(\.name) == ["amount", "displayOrder", "name"])
        #expect(ingredient.attributes[1].defaultValue == .integer16(0))
        #expect(ingredient.attributes[2].isOptional == false)
        #expect(ingredient.relationships.first?.inverseName == "ingredients")
        let recipe = try #require(model.entity(named: "Recipe"))
        #expect(recipe.className == "Recipe")
        #expect(
            recipe.attributes.first { $0.name == "thumbnailImage" }?.valueTransformerName?.hasSuffix(
                "ImageToDataTransformer") == true)
        #expect(recipe.relationships.first { $0.name == "ingredients" }?.deleteRule == .cascade)
        // The sample marks no attribute for Spotlight (XD_PPSK_isSpotlightIndexed).
        #expect(model.entities.allSatisfy { $0.attributes.allSatisfy { !$0.isIndexedForSearch } })
    }

    /// With its Xcode 3 model, Apple's 2010 store opens and reads: seven recipes, each of a type.
    @Test func theOldestStoreOpensWithItsXcode3Model() throws {
        let model = try XcodeModel.load(
            contentsOf: FixturePaths.url("fruitsamples-iPhoneCoreDataRecipes/Recipes.xcdatamodel"))
        let directory = try TemporaryDirectory()
        let store = try directory.copyStore("fruitsamples-iPhoneCoreDataRecipes/RecipeData/Recipes.sqlite")
        let coordinator = try PersistentStoreCoordinator.fixture(model)
        var description = PersistentStoreDescription.sqlite(at: store)
        description.isReadOnly = true
        try coordinator.addStore(description)
        let context = ManagedObjectContext(coordinator: coordinator)
        let counts = try context.performAndWait {
            try ["Recipe", "Ingredient", "RecipeType", "Image"].map {
                try context.count(for: FetchRequest<ManagedObject>(entityName: $0))
            }
        }
        #expect(counts == [7, 31, 5, 7])
        let typed = try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Recipe")).filter {
                try $0.object(forKey: "type") != nil
            }.count
        }
        #expect(typed == 7)
    }

    /// Apple's MigrationV2 sample's two versions, Xcode 3 models in an `.xcdatamodeld`.
    @Test func anXcode3VersionedModelReadsEachVersion() throws {
        let bundle = try XcodeVersionedModel(
            contentsOf: FixturePaths.url("fruitsamples-MigrationV2/Models/Migration.xcdatamodeld"))
        let old = try bundle.model(named: "Migration_Old")
        let new = try bundle.model(named: "Migration_New")
        #expect(old.entities.map(\.name) == ["Chef", "Ingredient", "Recipe"])
        #expect(new.entities.map(\.name) == ["Chef", "Cuisine", "Ingredient", "Recipe"])
        let rating = try #require(new.entity(named: "Recipe")?.attributes.first { $0.name == "rating" })
        #expect(rating.type == .integer16)
        #expect(rating.defaultValue == .integer16(3))
        #expect(rating.minValue == .integer16(0))
        #expect(rating.maxValue == .integer16(5))
        #expect(new.entity(named: "Chef")?.relationships.first?.isToMany == true)
        try old.freeze()
        try new.freeze()
    }

    @Test func sampleModelMapsEveryFeature() throws {
        let folder = "alemar11-CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld/"
        let v1 = try XcodeModel.load(contentsOf: FixturePaths.url(folder + "SampleModel.xcdatamodel"))
        #expect(v1.versionIdentifiers == ["1"])
        let car = try #require(v1.entity(named: "Car"))
        #expect(car.className == "Car")
        #expect(car.uniquenessConstraints == [["numberPlate"]])
        #expect(car.attribute(named: "numberPlate")?.isOptional == false)
        #expect(car.attribute(named: "maker")?.isOptional == true)
        #expect(car.attribute(named: "currentDrivingSpeed")?.isTransient == true)
        #expect(car.attribute(named: "color")?.type == .transformable)
        #expect(car.attribute(named: "color")?.valueTransformerName == "ColorTransformer")
        #expect(v1.entity(named: "ExpensiveSportCar")?.superentityName == "SportCar")
        let person = try #require(v1.entity(named: "Person"))
        #expect(person.attribute(named: "id")?.preservesValueInHistoryOnDeletion == true)
        #expect(person.uniquenessConstraints == [["firstName", "lastName"]])
        let cars = try #require(person.relationship(named: "cars"))
        #expect(cars.isToMany && cars.maxCount == 0 && cars.minCount == 0 && cars.deleteRule == .nullify)
        #expect(cars.destinationEntityName == "Car" && cars.inverseName == "owner")

        let v2 = try XcodeModel.load(contentsOf: FixturePaths.url(folder + "SampleModel2.xcdatamodel"))
        #expect(v2.entity(named: "LuxuryCar")?.renamingIdentifier == "ExpensiveSportCar")
        #expect(
            v2.entity(named: "Car")?.fetchIndexes == [
                FetchIndexDescription(
                    name: "byMakerAndNumberPlate",
                    elements: [.init(propertyName: "maker"), .init(propertyName: "numberPlate")])
            ])
        #expect(v2.entity(named: "LuxuryCar")?.attribute(named: "isLimitedEdition")?.defaultValue == .boolean(false))
    }

    @Test func renamingIdentifiersComeFromElementID() throws {
        let url = FixturePaths.url(
            "jeffreybergier-CoreDataMigrationTests/CoreDataMigration/CoreDataMigration/Model.xcdatamodeld")
        let bundle = try XcodeVersionedModel(contentsOf: url)
        let attribute = try bundle.model(named: "v1.1.0").entity(named: "BasicEntity")?.attributes.first
        #expect(attribute?.name == "v1_1_0_name")
        #expect(attribute?.renamingIdentifier == "v1_0_0_name")
    }

    @Test func emptyVersionIdentifierBecomesOneEmptyString() throws {
        let url = FixturePaths.url(
            "wibosco-CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"
        )
        #expect(try XcodeModel.load(contentsOf: url).versionIdentifiers == [""])
    }
}
