import Foundation
import Strata
import StrataTestSupport
import Testing

@Suite struct ValidateCommandTests {
    @Test func acceptsAValidStore() throws {
        let directory = try TemporaryDirectory()
        let url = try CommandStores.written(type: "Binary", named: "guide.binary", in: directory)
        let outcome = try StrataProcess.run(["validate", url.path])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output.contains("Checked 5 objects"))
        #expect(outcome.output.contains("no problems"))
    }

    @Test func listsMissingValuesAndDanglingReferences() throws {
        let directory = try TemporaryDirectory()
        let url = try CommandStores.writtenWithDanglingReference(in: directory)
        let outcome = try StrataProcess.run(["validate", url.path])
        #expect(outcome.status == 1)
        #expect(outcome.output.contains("which the store does not hold"))
        #expect(outcome.output.hasSuffix(": 1 problem.\n"))
    }

    @Test func failsOnAMissingFile() throws {
        let directory = try TemporaryDirectory()
        let outcome = try StrataProcess.run(["validate", directory.file("none.xml").path])
        #expect(outcome.status == 1)
        #expect(outcome.error.contains("There is no file at"))
    }

    @Test func failsOnACorruptFileOrAModelThatDoesNotMatch() throws {
        let directory = try TemporaryDirectory()
        let damaged = directory.file("damaged.xml")
        try Data("<?xml version=\"1.0\"?>\n<database><databaseInfo><version>".utf8).write(to: damaged)
        let corrupt = try StrataProcess.run(["validate", damaged.path])
        #expect(corrupt.status == 1)
        #expect(corrupt.error.hasPrefix("strata: "))
        #expect(corrupt.error.contains("damaged.xml"))
        #expect(corrupt.error.split(separator: "\n").count == 1)

        let url = try CommandStores.written(type: "LMDB", named: "guide.lmdb", in: directory)
        let modelURL = directory.file("planets.json")
        try ManagedObjectModel { EntityDescription("Planet") { AttributeDescription("name", .string) } }.jsonData()
            .write(to: modelURL)
        let mismatch = try StrataProcess.run(["validate", url.path, "--model", modelURL.path])
        #expect(mismatch.status == 1)
        #expect(mismatch.error.hasPrefix("strata: "))
        #expect(mismatch.error.split(separator: "\n").count == 1)
    }
}
