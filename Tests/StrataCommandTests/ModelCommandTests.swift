import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite struct ModelCommandTests {
    /// Every version of an Xcode model bundle prints the hashes Xcode computed for it.
    @Test func printsTheVersionHashesXcodeComputed() throws {
        let hashes = try AppleFixtures.sampleModel3Hashes()
        #expect(hashes.count == 3)
        for (version, entities) in hashes {
            let outcome = try StrataProcess.run(
                ["model", AppleFixtures.sampleModel3.path, "--model-version", version])
            #expect(outcome.status == 0, "\(outcome.error)")
            let lines = outcome.output.split(separator: "\n").map(String.init)
            #expect(lines.first?.contains(": \(entities.count) entities, version identifiers ") == true)
            for (entity, hash) in entities {
                #expect(lines.contains("  \(entity)  \(hash)"), "\(version).\(entity) in \(outcome.output)")
            }
        }
    }

    @Test func printsPropertiesParentsConfigurationsAndTheJSONSize() throws {
        let directory = try TemporaryDirectory()
        let model = ManagedObjectModel(versionIdentifiers: ["2", "1"]) {
            EntityDescription("Item", abstract: true) { AttributeDescription("name", .string) }
            EntityDescription("Book", parent: "Item") {
                AttributeDescription("pages", .integer32)
                RelationshipDescription.toMany("shelves", destination: "Shelf", inverse: "books")
            }
            EntityDescription("Shelf") {
                RelationshipDescription.toMany("books", destination: "Book", inverse: "shelves")
            }
            ConfigurationDescription("Library", entities: ["Item", "Book"])
        }
        let url = directory.file("library.json")
        try model.jsonData().write(to: url)

        let outcome = try StrataProcess.run(["model", url.path])
        #expect(outcome.status == 0, "\(outcome.error)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.first == "\(url.path): 3 entities, version identifiers 1, 2")
        #expect(lines.contains { $0.hasPrefix("  Item (abstract)  ") })
        #expect(lines.contains { $0.hasPrefix("  Book : Item  ") })
        #expect(lines.contains("    pages: Integer 32"))
        #expect(lines.contains("    shelves → [Shelf]"))
        #expect(lines.contains("Configuration Library: Book, Item"))
        #expect(lines.last == "JSON form: \(model.jsonData().count) bytes")
    }

    @Test func refusesAnInvalidModelOrAVersionOfAPlainFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("broken.json")
        try ManagedObjectModel {
            EntityDescription("Book") { RelationshipDescription.toOne("shelf", destination: "Shelf") }
        }.jsonData().write(to: url)
        let invalid = try StrataProcess.run(["model", url.path])
        #expect(invalid.status == 1)
        #expect(invalid.error.hasPrefix("strata: "))
        #expect(invalid.error.contains("Shelf"))

        let versioned = try StrataProcess.run(["model", url.path, "--model-version", "2"])
        #expect(versioned.status == 1)
        #expect(versioned.error.contains("--model-version applies only to"))

        let missing = try StrataProcess.run(["model", directory.file("none.json").path])
        #expect(missing.status == 1)
        #expect(missing.error.contains("none.json"))
    }
}
