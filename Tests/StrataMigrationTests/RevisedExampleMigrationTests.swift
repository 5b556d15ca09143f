import Foundation
import Strata
import StrataStores
import StrataTestSupport
import StrataXcodeModel
import Testing

/// wibosco's revised example: version 2 → 3 by `Migration2to3ModelMapping` and its policy,
/// which turns each post's content into a section; Core Data's own version 3 store holds the
/// sections it made for the same posts.
@Suite struct RevisedExampleMigrationTests {
    static let project = "wibosco-CoreDataMigrationRevised-Example/"
    static let stores = project + "CoreDataMigration-ExampleTests/Resources/SQLite/"

    /// What the example's `Post2ToPost3MigrationPolicy` does, as its version 3 store shows: a
    /// section per post, at index 0, holding the content, titled by its first four characters.
    struct ContentToSection: MigrationPolicy {
        func createDestinationInstances(for source: MigrationSourceInstance, in migration: MigrationPolicyContext)
            throws
        {
            let post = try migration.makeDestinationInstance(for: source)
            guard case .string(let content) = try source.value(forKey: "content") else { return }
            let section = try migration.insertDestinationInstance(ofEntity: "Section")
            try section.setValue(.string(String(content.prefix(4)) + "..."), forKey: "title")
            try section.setValue(.string(content), forKey: "body")
            try section.setValue(.integer16(0), forKey: "index")
            try post.setObjects([section], forKey: "sections")
        }
    }

    @Test func sectionsMadeFromContentMatchTheOnesCoreDataMade() throws {
        let bundle = try XcodeVersionedModel(
            contentsOf: AppleFixtures.url(
                Self.project + "CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"))
        let mapping = try bundle.mappingModel(
            contentsOf: AppleFixtures.url(
                Self.project
                    + "CoreDataMigration-Example/CoreData/Migration/Mappings/Migration2to3ModelMapping.xcmappingmodel"))
        let directory = try TemporaryDirectory()
        let url = try AppleFixtures.copyStore(Self.stores + "CoreDataMigration_Example_2.sqlite", into: directory)
        let apple = try AppleFixtures.copyStore(Self.stores + "CoreDataMigration_Example_3.sqlite", into: directory)
        let version3 = try bundle.model(named: "CoreDataMigration_Example 3")

        let steps = try bundle.migrationPlan(
            mappingModels: [mapping], policies: ["Post2ToPost3MigrationPolicy": ContentToSection()]
        ).migrateStore(at: url, type: .sqlite, to: version3)

        #expect(steps.map(\.isInferred) == [false])
        let labels = ["Post": "postID", "Section": "body"]
        let ours = AppleFixtures.byKey(
            try AppleFixtures.objects(of: "Post", in: url, model: version3, label: labels), "postID")
        let theirs = AppleFixtures.byKey(
            try AppleFixtures.objects(of: "Post", in: apple, model: version3, label: labels), "postID")
        #expect(ours.count == 10)
        let shared = Set(ours.keys).intersection(theirs.keys)
        #expect(shared.count >= 5)
        for postID in shared {
            #expect(ours[postID]?["sections"] == theirs[postID]?["sections"], "post \(postID)")
            #expect(ours[postID]?["hexColor"] == theirs[postID]?["hexColor"], "post \(postID)")
        }
        let sections = try AppleFixtures.objects(of: "Section", in: url, model: version3, label: labels)
        let appleSections = try AppleFixtures.objects(of: "Section", in: apple, model: version3, label: labels)
        let appleTitles = Dictionary(
            appleSections.map { ($0["body"] ?? "", $0["title"] ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(sections.count == 10)
        for section in sections where appleTitles[section["body"] ?? ""] != nil {
            #expect(section["title"] == appleTitles[section["body"] ?? ""])
            #expect(section["index"] == "0")
        }
    }
}
