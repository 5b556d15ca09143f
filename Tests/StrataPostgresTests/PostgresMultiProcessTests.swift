import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// Several processes, each with its own coordinator, share one PostgreSQL store.
@Suite struct PostgresMultiProcessTests {
    /// Four processes each add one to a shared counter 50 times, retrying on conflicts, and
    /// insert an entry with each increment: the counter ends at 200, and every entry is there
    /// once.
    @Test func fourProcessesIncrementingLoseNoUpdate() throws {
        let server = try PostgresTestServer.shared.get()
        let url = server.storeURL(schema: PostgresTestServer.uniqueSchema("counter"))
        let coordinator = try PersistentStoreCoordinator(model: CounterModel.model, storeTypes: [.postgres])
        let store = try coordinator.addStore(.postgres(at: url))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait { () throws in
            let counter = try context.insertNewObject(forEntityName: "Counter")
            try counter.setValue("shared", forKey: "name")
            try counter.setValue(.integer64(0), forKey: "value")
            try context.save()
        }
        let perWorker = 50
        let workers = try (1...4).map { writer in
            let process = Process()
            process.executableURL = BuiltProducts.executable("PostgresCounterWorker")
            process.arguments = [url.absoluteString, "w\(writer)", String(perWorker)]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            return process
        }
        for worker in workers {
            #expect(worker.waitForTermination().status == 0)
        }
        let counters = try store.execute(StoreFetchRequest(entityName: "Counter"))
        guard case .snapshots(let found) = counters, let counter = found.first else {
            Issue.record("The counter is missing.")
            return
        }
        #expect(counter.values["value"] == .integer64(Int64(4 * perWorker)))
        #expect(counter.version == Int64(4 * perWorker + 1))
        guard case .snapshots(let entries) = try store.execute(StoreFetchRequest(entityName: "Entry")) else { return }
        var seen = Set<String>()
        for entry in entries {
            if case .string(let writer)? = entry.values["writer"], case .integer64(let serial)? = entry.values["serial"]
            {
                #expect(seen.insert("\(writer)/\(serial)").inserted, "Entry \(writer)/\(serial) is there twice.")
            }
        }
        #expect(seen.count == 4 * perWorker)
    }
}
