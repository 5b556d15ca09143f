import Foundation
import StrataTestSupport
import Testing

@Suite struct InspectCommandTests {
    @Test func describesAStoreFromItsOwnMetadata() throws {
        let directory = try TemporaryDirectory()
        let url = try CommandStores.written(type: "SQLite", named: "guide.sqlite", in: directory)
        let outcome = try StrataProcess.run(["inspect", url.path])
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("Type: SQLite"))
        #expect(outcome.output.contains("UUID: "))
        #expect(outcome.output.contains("  City: 3"))
        #expect(outcome.output.contains("  Country: 2"))
        #expect(outcome.output.contains("Version hashes layout: 3"))
    }

    @Test func countsAnAppleStoreWithTheModelItKeeps() throws {
        let directory = try TemporaryDirectory()
        let copy = try AppleFixtures.copyStore(into: directory)
        let outcome = try StrataProcess.run(["inspect", copy.path])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output.contains("Type: SQLite"))
        #expect(outcome.output.contains("Written by: Core Data"))
        #expect(outcome.output.contains("  Post: 10"))
    }

    @Test func saysAnOldAppleStoreNeedsAModelForCounts() throws {
        let directory = try TemporaryDirectory()
        let copy = directory.file("Recipes.sqlite")
        try FileManager.default.copyItem(at: AppleFixtures.recipesStore, to: copy)
        let outcome = try StrataProcess.run(["inspect", copy.path])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output.contains("does not record its model"))
    }

    @Test func countsAnAppleStoreWithAVersionOfAModelBundle() throws {
        let directory = try TemporaryDirectory()
        let copy = try AppleFixtures.copyStore(into: directory)
        let outcome = try StrataProcess.run([
            "inspect", copy.path, "--model", AppleFixtures.modelBundle.path, "--model-version",
            "CoreDataMigration_Example",
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output.contains("  Post: 10"))
        let unknown = try StrataProcess.run([
            "inspect", copy.path, "--model", AppleFixtures.modelBundle.path, "--model-version", "Nine",
        ])
        #expect(unknown.status == 1)
        #expect(unknown.error.hasPrefix("strata: "))
    }

    @Test func failsOnAMissingOrForeignFile() throws {
        let directory = try TemporaryDirectory()
        let missing = try StrataProcess.run(["inspect", directory.file("none.sqlite").path])
        #expect(missing.status == 1)
        #expect(missing.error.hasPrefix("strata: There is no file at"))
        #expect(missing.error.split(separator: "\n").count == 1)

        let text = directory.file("notes.txt")
        try Data("plain text".utf8).write(to: text)
        let foreign = try StrataProcess.run(["inspect", text.path])
        #expect(foreign.status == 1)
        #expect(foreign.error.contains("is not a store file"))
    }

    @Test(arguments: [
        (
            "SQLite",
            "Format: Core Data's SQLite schema, Z_METADATA version 1, version hashes version 3, "
                + "Core Data framework version 1344; SQLite journal mode wal, tables "
        ),
        ("LMDB", "Format: Strata's LMDB layout version 1"),
        ("XML", "Format: Core Data's XML store version 134481920 (0x08040800)"),
        ("Binary", "Format: Strata's binary store version 1"),
    ])
    func printsTheFormatVersionOfEachStoreType(type: String, format: String) throws {
        let directory = try TemporaryDirectory()
        let url = try CommandStores.written(type: type, named: "guide.\(type.lowercased())", in: directory)
        let outcome = try StrataProcess.run(["inspect", url.path])
        #expect(outcome.status == 0, "\(outcome.error)")
        let line = outcome.output.split(separator: "\n").first { $0.hasPrefix("Format: ") }
        #expect(line?.hasPrefix(format) == true, "\(outcome.output)")
    }

    @Test func printsTheSchemaOfAnAppleSQLiteStore() throws {
        let directory = try TemporaryDirectory()
        let copy = try AppleFixtures.copyStore(into: directory)
        let outcome = try StrataProcess.run(["inspect", copy.path])
        #expect(outcome.status == 0, "\(outcome.error)")
        let line = try #require(outcome.output.split(separator: "\n").first { $0.hasPrefix("Format: ") })
        #expect(line.contains("Z_METADATA version 1, version hashes version 3, Core Data framework version "))
        #expect(line.contains("tables ") && line.contains("Z_PRIMARYKEY") && line.contains("ZPOST"))
    }

    @Test func countsAnAppleStoreWithOneXcodeModelVersion() throws {
        let directory = try TemporaryDirectory()
        let copy = try AppleFixtures.copyStore(into: directory)
        let version = AppleFixtures.modelBundle.appendingPathComponent("CoreDataMigration_Example.xcdatamodel")
        let outcome = try StrataProcess.run(["inspect", copy.path, "--model", version.path])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output.contains("  Post: 10"))
    }
}
