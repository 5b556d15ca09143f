import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite struct DumpCommandTests {
    @Test func printsEveryObjectUnderItsEntity() throws {
        let directory = try TemporaryDirectory()
        let url = try CommandStores.written(type: "LMDB", named: "guide.lmdb", in: directory)
        let outcome = try StrataProcess.run(["dump", url.path])
        #expect(outcome.status == 0, "\(outcome.error)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        let store = try #require(document["store"] as? [String: Any])
        #expect(store["type"] as? String == "LMDB")
        let entities = try #require(document["entities"] as? [String: [[String: Any]]])
        #expect(entities["City"]?.count == 3)
        #expect(entities["Country"]?.count == 2)
        #expect(outcome.output.contains("\"string\" : \"Paris\""))
    }

    @Test func canonicalDumpsLeaveOutTheStoreAndNameObjectsByPosition() throws {
        let directory = try TemporaryDirectory()
        let url = try CommandStores.written(type: "XML", named: "guide.xml", in: directory)
        let outcome = try StrataProcess.run(["dump", url.path, "--canonical"])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(!outcome.output.contains("\"uuid\""))
        #expect(outcome.output.contains("\"Country/1\""))
        #expect(!outcome.output.contains("x-strata"))
    }

    @Test func failsWhenTheModelDoesNotMatch() throws {
        let directory = try TemporaryDirectory()
        let url = try CommandStores.written(type: "SQLite", named: "guide.sqlite", in: directory)
        let other = ManagedObjectModel { EntityDescription("Planet") { AttributeDescription("name", .string) } }
        let modelURL = directory.file("planets.json")
        try other.jsonData().write(to: modelURL)
        let outcome = try StrataProcess.run(["dump", url.path, "--model", modelURL.path])
        #expect(outcome.status == 1)
        #expect(outcome.error.hasPrefix("strata: "))
        #expect(outcome.error.split(separator: "\n").count == 1)
    }

    @Test func failsOnACorruptFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("damaged.binary")
        try Data([0x89, 0x53, 0x54, 0x52, 0x42, 0x49, 0x4E, 0x0A] + Array(repeating: 0x5A, count: 40)).write(to: url)
        let outcome = try StrataProcess.run(["dump", url.path])
        #expect(outcome.status == 1)
        #expect(outcome.error.hasPrefix("strata: "))
        #expect(outcome.error.contains("damaged.binary"))
        #expect(outcome.error.split(separator: "\n").count == 1)
    }

    @Test func dumpingAnSQLiteStoreLeavesItsFolderAsItFoundIt() throws {
        let directory = try TemporaryDirectory()
        let url = try CommandStores.written(type: "SQLite", named: "guide.sqlite", in: directory)
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        let outcome = try StrataProcess.run(["dump", url.path])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == before)
    }
}
