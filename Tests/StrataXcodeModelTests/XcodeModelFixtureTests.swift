import Foundation
import Strata
import StrataXcodeModel
import Testing

/// Every model file among the Apple-made fixtures loads as expected.
@Suite struct XcodeModelFixtureTests {
    /// Every Xcode model `contents` file in the fixtures. All load and freeze except the one
    /// MomXML file with a Composite attribute (tested below).
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

    @Test func compositeAttributesAreRefused() {
        let path = FixturePaths.url("phimage-MomXML/Tests/Model.xcdatamodeld/Model.xcdatamodel/contents").path
        #expect {
            _ = try XcodeModel.load(contentsOf: URL(fileURLWithPath: path))
        } throws: { error in
            let error = error as! ModelError
            return error.code == .unsupportedFormat && error.filePath == path && error.line == 36
                && error.message.contains("<attribute name=\"attribute1\"> in entity 'Produit'")
                && error.message.contains("Composite")
        }
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

    @Test(arguments: [
        "fruitsamples-iPhoneCoreDataRecipes/Recipes.xcdatamodel",
        "fruitsamples-iPhoneCoreDataRecipes/DesktopRecipes/Recipes.xcdatamodel",
        "fruitsamples-MigrationV2/Models/Migration.xcdatamodeld/Migration_Old.xcdatamodel",
        "fruitsamples-MigrationV2/Models/Migration.xcdatamodeld",
    ])
    func xcode3ModelsAreUnsupported(_ path: String) {
        #expect {
            _ = try XcodeModel.load(contentsOf: FixturePaths.url(path))
        } throws: { error in
            let error = error as! ModelError
            return error.code == .unsupportedFormat && error.message.contains("Xcode 3")
                && error.message.contains("recent Xcode")
        }
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
