import Foundation
import Strata
import StrataStores
import StrataTestSupport
import StrataXcodeModel
import Testing

/// Entity mappings run by migration policies: objects made beyond one per source object,
/// relationships set by hand with their inverses, and policies that are not registered.
@Suite struct MigrationPolicyTests {
    /// What wibosco's `Post2ToPost3MigrationPolicy` does: each post keeps its attributes and
    /// gets a new `Color` object holding its old `hexColor`.
    struct SplitColour: MigrationPolicy {
        func createDestinationInstances(for source: MigrationSourceInstance, in migration: MigrationPolicyContext)
            throws
        {
            let post = try migration.makeDestinationInstance(for: source)
            let colour = try migration.insertDestinationInstance(ofEntity: "Color")
            try colour.setValue(.string(UUID().uuidString), forKey: "colorID")
            try colour.setValue(source.value(forKey: "hexColor"), forKey: "hex")
            try post.setObject(colour, forKey: "color")
        }
    }

    /// The mapping model `Migration2to3.xcmappingmodel` holds, written out: `Post` by the
    /// policy, with its attributes copied, and `Color` added.
    static let splitColourMapping = MappingModel(entityMappings: [
        EntityMapping(name: "Color", kind: .add, sourceEntityName: nil, destinationEntityName: "Color"),
        EntityMapping(
            name: "PostToPost", kind: .custom, sourceEntityName: "Post", destinationEntityName: "Post",
            attributeMappings: ["date", "postID"].map { PropertyMapping(name: $0, valueExpression: .source($0)) },
            migrationPolicyName: "CoreDataMigration_Example.Post2ToPost3MigrationPolicy"),
    ])

    static let project = "wibosco-CoreDataMigration-Example/"
    static func bundle() throws -> XcodeVersionedModel {
        try XcodeVersionedModel(
            contentsOf: AppleFixtures.url(
                project + "CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"))
    }

    @Test func aPolicySplitsAnAttributeIntoAnEntityOfItsOwn() throws {
        let bundle = try Self.bundle()
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copyStore(
            Self.project + "CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_2.sqlite",
            into: directory)
        let (version2, version3) = (
            try bundle.model(named: "CoreDataMigration_Example 2"),
            try bundle.model(named: "CoreDataMigration_Example 3")
        )
        let before = try AppleFixtures.objects(of: "Post", in: url, model: version2)
        #expect(before.count == 5979)

        try MigrationManager(
            sourceModel: version2, destinationModel: version3, policies: ["Post2ToPost3MigrationPolicy": SplitColour()]
        ).migrateStore(at: url, type: .sqlite, mapping: Self.splitColourMapping)

        let labels = ["Color": "hex", "Post": "postID"]
        let posts = try AppleFixtures.objects(of: "Post", in: url, model: version3, label: labels)
        let colours = try AppleFixtures.objects(of: "Color", in: url, model: version3, label: labels)
        #expect(posts.count == 5979)
        #expect(colours.count == 5979)
        #expect(
            AppleStoreMigrationTests.lines(
                posts.map { ["postID": $0["postID"] ?? "", "date": $0["date"] ?? "", "hex": $0["color"] ?? ""] })
                == AppleStoreMigrationTests.lines(
                    before.map {
                        ["postID": $0["postID"] ?? "", "date": $0["date"] ?? "", "hex": $0["hexColor"] ?? ""]
                    }))
        #expect(colours.allSatisfy { $0["post"] != "-" && $0["colorID"]?.count == 36 })
    }

    @Test func aPolicyThatIsNotRegisteredIsNamedAndNothingIsWritten() throws {
        let bundle = try Self.bundle()
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copyStore(
            Self.project + "CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_2.sqlite",
            into: directory)
        let before = try DirectorySnapshot(directory.url)
        let error = #expect(throws: MigrationError.self) {
            try MigrationManager(
                sourceModel: try bundle.model(named: "CoreDataMigration_Example 2"),
                destinationModel: try bundle.model(named: "CoreDataMigration_Example 3")
            ).migrateStore(at: url, type: .sqlite, mapping: Self.splitColourMapping)
        }
        #expect(error?.code == .unknownPolicy)
        #expect(error?.message.contains("Post2ToPost3MigrationPolicy") == true)
        #expect(try DirectorySnapshot(directory.url) == before)
    }

    /// A policy that gives every author a prize named after them, associated with the author
    /// too: the books' authors, made by another mapping, must still find the writer only.
    struct PrizePerAuthor: MigrationPolicy {
        func createDestinationInstances(for source: MigrationSourceInstance, in migration: MigrationPolicyContext)
            throws
        {
            try migration.makeDestinationInstance(for: source)
            let prize = try migration.insertDestinationInstance(ofEntity: "Prize")
            try prize.setValue(
                .string("Prize of \(LibraryVersions.words(try source.value(forKey: "name")))"), forKey: "name")
            try migration.associate(source, with: prize)
        }

        func createRelationships(for destination: MigrationDestinationInstance, in migration: MigrationPolicyContext)
            throws
        {
            try migration.setMappedRelationships(of: destination)
        }
    }

    @Test func objectsAPolicyAssociatesAreFoundByTheirEntity() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let (version1, version2) = (LibraryVersions.model(1), LibraryVersions.model(2))
        var mapping = try MappingModel.inferred(from: version1, to: version2)
        let writer = try #require(mapping.entityMappings.firstIndex { $0.name == "AuthorToWriter" })
        mapping.entityMappings[writer].kind = .custom
        mapping.entityMappings[writer].migrationPolicyName = "PrizePerAuthor"

        try MigrationManager(
            sourceModel: version1, destinationModel: version2, policies: ["PrizePerAuthor": PrizePerAuthor()]
        )
        .migrateStore(at: url, type: .sqlite, mapping: mapping)

        let summary = try LibraryVersions.summary(of: url, type: .sqlite, model: version2)
        #expect(
            summary
                == (LibraryVersions.migratedSummary + [
                    "Prize name=Prize of Ann book=-", "Prize name=Prize of Bob book=-",
                ]).sorted())
    }
}
