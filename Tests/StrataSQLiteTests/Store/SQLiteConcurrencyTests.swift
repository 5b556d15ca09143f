import Foundation
import Strata
import StrataTestSupport
import Synchronization
import Testing

@testable import StrataSQLite

/// Readers run on a pool while one writer saves, and two processes writing one file both get
/// through: nothing fails, nothing is lost, every read sees one saved state.
@Suite struct SQLiteConcurrencyTests {
    @Test func eightReadersAndAWriterSeeOnlyWholeSaves() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStoreFile.open(
            StoreOpenRequest(
                model: ContentionModel.model, url: directory.file("pool.sqlite"),
                options: StoreOptions(settings: ["poolSize": "8"])))
        let failures = Locked<[String]>([])
        let writerDone = Atomic<Bool>(false)
        Self.runOnThreads(9) { worker in
            do {
                if worker == 0 {
                    defer { writerDone.store(true, ordering: .sequentiallyConsistent) }
                    for _ in 0..<100 {
                        let ids = try store.permanentIDs(forEntities: ["Entry", "Entry"])
                        try store.save(
                            StoreChangeSet(
                                inserted: ids.map { .init(objectID: $0, values: ["writer": "w"], expectedVersion: 0) }))
                    }
                    return
                }
                var last = 0
                while !writerDone.load(ordering: .sequentiallyConsistent) {
                    guard
                        case .count(let count) = try store.execute(
                            StoreFetchRequest(entityName: "Entry", resultType: .count))
                    else { continue }
                    if count % 2 != 0 || count < last {
                        failures.withLock { $0.append("reader \(worker) saw \(count) after \(last)") }
                    }
                    last = count
                }
            } catch {
                failures.withLock { $0.append("worker \(worker): \(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(try store.execute(StoreFetchRequest(entityName: "Entry", resultType: .count)) == .count(200))
        #expect(store.pool.openReaderCount > 1 && store.pool.openReaderCount <= 8)
    }

    /// Runs `body` on `count` threads of its own at once (not a pool that may run them one
    /// after another) and waits for all of them.
    private static func runOnThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                body(index)
                group.leave()
            }.start()
        }
        group.wait()
    }

    @Test func aPoolOfOneRunsEveryReadOnTheWriter() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStoreFile.open(
            StoreOpenRequest(
                model: ContentionModel.model, url: directory.file("serial.sqlite"),
                options: StoreOptions(settings: ["poolSize": "1"])))
        try ContentionModel.writeEntries(3, as: "serial", into: store)
        #expect(try store.execute(StoreFetchRequest(entityName: "Entry", resultType: .count)) == .count(3))
        #expect(store.pool.openReaderCount == 0)
    }

    @Test(arguments: [("0", 1), ("-5", 1), ("100000", 64)])
    func poolSizesAreClamped(_ setting: String, _ expected: Int) throws {
        #expect(
            try SQLiteStoreSettings(nil, settings: StoreOptions(settings: ["poolSize": setting])).poolSize == expected)
    }

    @Test func typedOptionsWinOverStringSettingsAndFillInFromThem() throws {
        let settings = StoreOptions(settings: ["poolSize": "3", "busyTimeout": "250"])
        let typed = try SQLiteStoreSettings(SQLiteStoreOptions(poolSize: 5), settings: settings)
        #expect(typed.poolSize == 5)
        #expect(typed.busyTimeoutMilliseconds == 250)
        let timed = try SQLiteStoreSettings(SQLiteStoreOptions(busyTimeout: .seconds(2)), settings: StoreOptions())
        #expect(timed.busyTimeoutMilliseconds == 2_000)
    }

    @Test func aSettingThatIsNotANumberIsATypedErrorNamingIt() throws {
        let directory = try TemporaryDirectory()
        let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [.sqlite])
        let error = try #require(throws: StoreError.self) {
            try coordinator.addStore(
                type: "SQLite", at: directory.file("bad.sqlite"), options: StoreOptions(settings: ["poolSize": "many"]))
        }
        #expect(error.code == .invalidOption)
        #expect(error.message.contains("'poolSize'") && error.message.contains("'many'"))
    }

    @Test func aTypedDescriptionOpensWithItsOptions() async throws {
        let directory = try TemporaryDirectory()
        let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model)
        let store = try await coordinator.addStore(
            .sqlite(at: directory.file("typed.sqlite"), options: SQLiteStoreOptions(poolSize: 1)))
        try ContentionModel.writeEntries(2, as: "typed", into: store)
        #expect(try store.execute(StoreFetchRequest(entityName: "Entry", resultType: .count)) == .count(2))
        #expect((store as? SQLiteStore)?.pool.maximumReaders == 1)
        #expect(!coordinator.storeTypeNames.contains("SQLite"))
        let plain = try await coordinator.addStore(.sqlite(at: directory.file("plain.sqlite")))
        #expect(coordinator.storeTypeNames.contains("SQLite"))
        #expect(try coordinator.storeType(named: "SQLite") == .sqlite)
        #expect((plain as? SQLiteStore)?.pool.maximumReaders != 1)
    }

    @Test func twoProcessesWritingOneFileBothGetThrough() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.sqlite")
        let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [.sqlite])
        let store = try coordinator.addStore(type: StoreType.sqlite.name, at: url)
        let worker = BuiltProducts.executable("SQLiteContentionWorker")
        let processes = try ["a", "b"].map { name in
            let process = Process()
            process.executableURL = worker
            process.arguments = [url.path, name, "60"]
            try process.run()
            return process
        }
        try ContentionModel.writeEntries(20, as: "parent", into: store)
        #expect(processes.map { $0.waitForTermination().status } == [0, 0])
        guard case .snapshots(let entries) = try store.execute(StoreFetchRequest(entityName: "Entry")) else {
            Issue.record("no snapshots")
            return
        }
        var serials: [String: [Int64]] = [:]
        for entry in entries {
            guard case .string(let writer)? = entry.values["writer"],
                case .integer64(let serial)? = entry.values["serial"]
            else { continue }
            serials[writer, default: []].append(serial)
        }
        #expect(serials["a"]?.sorted() == Array(0..<60))
        #expect(serials["b"]?.sorted() == Array(0..<60))
        #expect(serials["parent"]?.sorted() == Array(0..<20))
        #expect(Set(entries.map(\.objectID)).count == 140)
    }
}
