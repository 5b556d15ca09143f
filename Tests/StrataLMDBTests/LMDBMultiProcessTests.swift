import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataLMDB

/// Two processes read a store while a third writes it: each read sees one committed state.
@Suite struct LMDBMultiProcessTests {
    static var worker: URL { BuiltProducts.executable("LMDBReadWriteWorker") }

    @Test func twoReadersSeeConsistentStatesWhileAWriterSavesAndGrowsTheMap() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.lmdb")
        do {
            let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [.lmdb])
            // A 64 KiB map: the writer grows it while the readers read, and they take its new size.
            _ = try coordinator.addStore(
                type: StoreType.lmdb.name, at: url, options: StoreOptions(settings: ["mapSize": "65536"]))
        }
        let count = 1_000
        let processes = try ["write", "read", "read"].map { role in
            let process = Process()
            process.executableURL = Self.worker
            process.arguments = [role, url.path, String(count)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return (process, output)
        }
        for (process, output) in processes {
            let termination = process.waitForTermination()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(termination.status == 0, "worker \(process.arguments ?? []) printed \(text)")
        }
        let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [.lmdb])
        let store = try coordinator.addStore(type: StoreType.lmdb.name, at: url)
        #expect(try store.execute(StoreFetchRequest(entityName: "Entry", resultType: .count)) == .count(count))
        let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(size > 65_536)
    }
}
