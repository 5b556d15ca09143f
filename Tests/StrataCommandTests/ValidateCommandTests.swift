import Foundation
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
}
