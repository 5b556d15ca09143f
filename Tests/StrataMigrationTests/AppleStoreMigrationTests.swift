import Foundation
import Strata
import StrataStores
import StrataTestSupport
import StrataXcodeModel
import Testing

/// Stores written by Core Data, migrated by inferred mappings through their models' versions,
/// with the results the fixtures' own projects expect.
@Suite struct AppleStoreMigrationTests {
    static let bergier = "jeffreybergier-CoreDataMigrationTests/CoreDataMigration/"

    /// Five versions, each renaming the one attribute through `elementID`; every store holds
    /// one object whose value must reach the newest version.
    @Test(arguments: ["1.0.0", "1.1.0", "1.1.2", "1.2.0", "2.0.0"])
    func everyVersionOfARenamedAttributeReachesTheCurrentModel(_ version: String) throws {
        let bundle = try XcodeVersionedModel(
            contentsOf: AppleFixtures.url(Self.bergier + "CoreDataMigration/Model.xcdatamodeld"))
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copyStore(
            Self.bergier + "CoreDataMigrationTests/Example_v\(version).sqlite", into: directory)
        let current = try bundle.currentModel()

        let steps = try bundle.migrationPlan().migrateStore(at: url, type: .sqlite, to: current)

        let expected = bundle.versionNames.drop { $0 != "v\(version)" }
        #expect(steps.map(\.source.name) == Array(expected.dropLast()))
        let objects = try AppleFixtures.objects(of: "BasicEntity", in: url, model: current)
        #expect(objects == [["entity": "BasicEntity", "v2_0_0_name": "A Known Value"]])
    }

    /// Version 2 renames `color` to `hexColor` through `elementID`: the ten posts keep their
    /// colours under the new name.
    @Test func aRenamedAttributeKeepsItsValues() throws {
        let project = "wibosco-CoreDataMigrationRevised-Example/"
        let bundle = try XcodeVersionedModel(
            contentsOf: AppleFixtures.url(
                project + "CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"))
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copyStore(
            project + "CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_1.sqlite",
            into: directory)
        let (version1, version2) = (
            try bundle.model(named: "CoreDataMigration_Example"), try bundle.model(named: "CoreDataMigration_Example 2")
        )
        let before = AppleFixtures.byKey(try AppleFixtures.objects(of: "Post", in: url, model: version1), "postID")
        #expect(before.count == 10)

        try bundle.migrationPlan().migrateStore(at: url, type: .sqlite, to: version2)

        let after = AppleFixtures.byKey(try AppleFixtures.objects(of: "Post", in: url, model: version2), "postID")
        #expect(after.count == 10)
        for (postID, old) in before {
            let new = try #require(after[postID])
            #expect(new["hexColor"] == old["color"])
            #expect(new["content"] == old["content"])
            #expect(new["date"] == old["date"])
        }
        #expect(before.values.contains { $0["color"] != "-" })
    }

    /// Version 4 adds `Post.hide` (default NO): the 7 995 posts and their colours carry over
    /// and none is hidden.
    @Test func anAddedAttributeTakesItsDefaultAndRelationshipsCarryOver() throws {
        let project = "wibosco-CoreDataMigration-Example/"
        let bundle = try XcodeVersionedModel(
            contentsOf: AppleFixtures.url(
                project + "CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"))
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copyStore(
            project + "CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_3.sqlite",
            into: directory)
        let (version3, version4) = (try bundle.model(named: "CoreDataMigration_Example 3"), try bundle.currentModel())
        let labels = ["Color": "hex", "Post": "postID"]
        let before = try AppleFixtures.objects(of: "Post", in: url, model: version3, label: labels)
        #expect(before.count == 7995)

        let steps = try bundle.migrationPlan().migrateStore(at: url, type: .sqlite, to: version4)

        #expect(steps.map(\.destination.name) == ["CoreDataMigration_Example 4"])
        let after = try AppleFixtures.objects(of: "Post", in: url, model: version4, label: labels)
        #expect(after.count == 7995)
        #expect(after.allSatisfy { $0["hide"] == "false" })
        #expect(Self.lines(after.map { $0.filter { $0.key != "hide" } }) == Self.lines(before))
        #expect(try AppleFixtures.objects(of: "Color", in: url, model: version4, label: labels).count == 7995)
    }

    /// Version 2 renames `ExpensiveSportCar` to `LuxuryCar` through `elementID`, drops four
    /// attributes and adds a fetch index. Core Data migrated the same data: Strata's result
    /// must hold the same objects and values as Apple's.
    @Test func aRenamedSubentityMigratesAsCoreDataMigratedIt() throws {
        let project = "alemar11-CoreDataPlus/Tests/Resources/SampleModel/"
        let bundle = try XcodeVersionedModel(contentsOf: AppleFixtures.url(project + "SampleModel.xcdatamodeld"))
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copyStore(project + "Fixtures/SampleModel_V1.sqlite", into: directory)
        let apple = try AppleFixtures.copyStore(project + "Fixtures/SampleModel_V2.sqlite", into: directory)
        let version2 = try bundle.model(named: "SampleModel2")

        let steps = try bundle.migrationPlan().migrateStore(at: url, type: .sqlite, to: version2)

        #expect(steps.map(\.source.name) == ["SampleModel"])
        let labels = [
            "Car": "numberPlate", "SportCar": "numberPlate", "LuxuryCar": "numberPlate", "Person": "lastName",
        ]
        for entity in ["Car", "Person"] {
            let ours = try AppleFixtures.objects(of: entity, in: url, model: version2, label: labels)
            let theirs = try AppleFixtures.objects(
                of: entity, in: apple, model: try bundle.model(named: "SampleModel2"), label: labels)
            #expect(ours.count == theirs.count)
            #expect(Self.lines(ours) == Self.lines(theirs))
        }
        let cars = try AppleFixtures.objects(of: "Car", in: url, model: version2, label: labels)
        #expect(cars.count == 125)
        #expect(cars.contains { $0["entity"] == "LuxuryCar" })
    }

    /// Version 2 adds a `Pet` entity and a relationship to it; version 3 drops `User.petName`.
    @Test func anAddedEntityStartsEmptyAndARemovedAttributeGoes() throws {
        let project = "alemar11-CoreDataPlus/Tests/Resources/SampleModel3/"
        let bundle = try XcodeVersionedModel(
            contentsOf: AppleFixtures.url(project + "SampleModel3.xcdatamodeld"))
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copyStore(project + "Fixtures/SampleModel3_V1.sqlite", into: directory)
        let (version1, version3) = (try bundle.model(named: "SampleModel3"), try bundle.model(named: "SampleModel3_v3"))
        let before = try AppleFixtures.objects(of: "User", in: url, model: version1)
        #expect(before.count == 12)

        let steps = try bundle.migrationPlan().migrateStore(at: url, type: .sqlite, to: version3)

        #expect(steps.count == 2)
        let after = try AppleFixtures.objects(of: "User", in: url, model: version3)
        #expect(after.map { $0["name"] ?? "" }.sorted() == before.map { $0["name"] ?? "" }.sorted())
        #expect(after.allSatisfy { $0["pet"] == "-" && $0["petName"] == nil })
        #expect(try AppleFixtures.objects(of: "Pet", in: url, model: version3).isEmpty)
    }

    /// Each object as one line of its keys and values, sorted: a multiset to compare.
    static func lines(_ objects: [[String: String]]) -> [String] {
        objects.map { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }.sorted()
    }
}
