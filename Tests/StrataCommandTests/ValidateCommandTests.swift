import Foundation
import Strata
import StrataStores
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
        let url = directory.file("broken.sqlite")
        let coordinator = try PersistentStoreCoordinator(
            model: CommandStores.model(), storeTypes: StoreType.builtInFileTypes)
        let store = try coordinator.addStore(type: "SQLite", at: url)
        let ids = try store.permanentIDs(forEntities: ["Country", "City"])
        try store.save(
            StoreChangeSet(inserted: [
                .init(objectID: ids[1], values: ["country": .objectID(ids[0])], expectedVersion: 0)
            ]))
        let outcome = try StrataProcess.run(["validate", url.path])
        #expect(outcome.status == 1)
        #expect(outcome.output.contains("which the store does not hold"))
        #expect(outcome.output.contains("1 problems") || outcome.output.contains("problems."))
    }

    @Test func failsOnAMissingFile() throws {
        let directory = try TemporaryDirectory()
        let outcome = try StrataProcess.run(["validate", directory.file("none.xml").path])
        #expect(outcome.status == 1)
        #expect(outcome.error.contains("There is no file at"))
    }
}
