import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// The SQLite store's query generations: read transactions held on pooled connections, which
/// hold back WAL checkpoints until they are released, bounded in age, and only in WAL mode.
@Suite struct SQLiteGenerationTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    private func open(
        _ name: String, options: SQLiteStoreOptions = SQLiteStoreOptions(), readOnly: Bool = false
    ) throws -> (PersistentStoreCoordinator, SQLiteStore) {
        let coordinator = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [.sqlite(options)])
        let store = try coordinator.addStore(
            type: "SQLite", at: directory.file(name), options: StoreOptions(isReadOnly: readOnly))
        return (coordinator, try #require(store as? SQLiteStore))
    }

    private let entries = StoreFetchRequest(entityName: "Entry", resultType: .count)

    /// The WAL frames a passive checkpoint could not copy into the database file.
    private func framesLeftInWAL(_ store: SQLiteStore) throws -> Int64 {
        try store.pool.withWriter { connection in
            let rows = try connection.statement("PRAGMA wal_checkpoint(PASSIVE)").rows {
                ($0.value(at: 1), $0.value(at: 2))
            }
            guard case (.integer(let log), .integer(let copied))? = rows.first else { return -1 }
            return log - copied
        }
    }

    @Test func aHeldGenerationHoldsBackCheckpointsUntilItIsReleased() throws {
        let (_, store) = try open("checkpoint.sqlite")
        try ContentionModel.writeEntries(2, as: "before", into: store)
        #expect(try framesLeftInWAL(store) == 0)
        var view = try #require(try store.openGeneration())
        try ContentionModel.writeEntries(3, as: "after", into: store)
        #expect(try framesLeftInWAL(store) > 0)
        #expect(try view.execute(entries) == .count(2))
        #expect(try store.execute(entries) == .count(5))
        view = try #require(try store.openGeneration())
        #expect(try framesLeftInWAL(store) == 0)
        #expect(try view.execute(entries) == .count(5))
    }

    @Test func aGenerationOlderThanTheLimitIsReleasedAtTheNextSaveAndFailsClearly() throws {
        let (coordinator, store) = try open(
            "aged.sqlite", options: SQLiteStoreOptions(maximumGenerationAge: .seconds(1)))
        #expect(store.maximumGenerationAge == .seconds(1))
        try ContentionModel.writeEntries(1, as: "before", into: store)
        let pinned = ManagedObjectContext(coordinator: coordinator)
        let count = FetchRequest<ManagedObject>(entityName: "Entry")
        try pinned.performAndWait { () throws in
            try pinned.setQueryGenerationFrom(.current)
            #expect(try pinned.count(for: count) == 1)
        }
        Thread.sleep(forTimeInterval: 1.2)
        try ContentionModel.writeEntries(1, as: "after", into: store)
        #expect(try framesLeftInWAL(store) == 0)
        try pinned.performAndWait { () throws in
            let error = #expect(throws: StoreError.self) { try pinned.count(for: count) }
            #expect(error?.code == .generationUnavailable)
            #expect(error?.message.contains("maximum generation age") == true)
            try pinned.setQueryGenerationFrom(.current)
            #expect(try pinned.count(for: count) == 2)
        }
    }

    @Test func aGenerationOlderThanTheLimitFailsAtItsNextReadWithoutASave() throws {
        let (_, store) = try open(
            "read.sqlite", options: SQLiteStoreOptions(maximumGenerationAge: .milliseconds(10)))
        #expect(store.maximumGenerationAge == .seconds(1))
        let view = try #require(try store.openGeneration())
        Thread.sleep(forTimeInterval: 1.2)
        let error = #expect(throws: StoreError.self) { try view.execute(entries) }
        #expect(error?.code == .generationUnavailable)
    }

    @Test func theAgeLimitIsReadFromTheStoresSettings() throws {
        let settings = try SQLiteStoreSettings(nil, settings: StoreOptions(settings: ["maximumGenerationAge": "90000"]))
        #expect(settings.maximumGenerationAge == .seconds(90))
        #expect(try SQLiteStoreSettings(nil, settings: StoreOptions()).maximumGenerationAge == .seconds(900))
        #expect(throws: StoreError.self) {
            try SQLiteStoreSettings(nil, settings: StoreOptions(settings: ["maximumGenerationAge": "soon"]))
        }
    }

    @Test func heldGenerationsNeverKeepReadsWaiting() throws {
        let (_, store) = try open("pool.sqlite", options: SQLiteStoreOptions(poolSize: 2))
        try ContentionModel.writeEntries(1, as: "x", into: store)
        let views = try (0..<5).map { _ in try #require(try store.openGeneration()) }
        #expect(try store.execute(entries) == .count(1))
        for view in views { #expect(try view.execute(entries) == .count(1)) }
        #expect(store.pool.openReaderCount <= 2)
    }

    @Test func aFileNotInWALModeHasNoGenerationsUntilItsFirstSaveSwitchesIt() throws {
        let url = directory.file("rollback.sqlite")
        try {
            let (coordinator, store) = try open("rollback.sqlite")
            try ContentionModel.writeEntries(1, as: "x", into: store)
            try coordinator.remove(store)
        }()
        try SQLiteConnection(path: url.path, mode: .readWrite).execute(script: "PRAGMA journal_mode = DELETE")
        try {
            let (_, readOnly) = try open("rollback.sqlite", readOnly: true)
            #expect(try readOnly.openGeneration() == nil)
        }()
        let (_, store) = try open("rollback.sqlite")
        #expect(try store.openGeneration() == nil)
        try ContentionModel.writeEntries(1, as: "y", into: store)
        #expect(try store.openGeneration() != nil)
    }

    @Test func removingTheStoreReleasesItsGenerationsAndItsSideFiles() throws {
        let (coordinator, store) = try open("removed.sqlite")
        try ContentionModel.writeEntries(1, as: "x", into: store)
        let view = try #require(try store.openGeneration())
        try coordinator.remove(store)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(left == ["removed.sqlite"])
        let error = #expect(throws: StoreError.self) { try view.execute(entries) }
        #expect(error?.code == .generationUnavailable)
        #expect(error?.message.contains("closed") == true)
    }

    @Test func aViewDoesNotSeeWhatAnotherProcessSaves() throws {
        let (_, store) = try open("process.sqlite")
        try ContentionModel.writeEntries(2, as: "parent", into: store)
        let view = try #require(try store.openGeneration())
        let path = directory.file("process.sqlite").path
        #expect(try BuiltProducts.run("SQLiteContentionWorker", [path, "child", "5"]) == 0)
        #expect(try view.execute(entries) == .count(2))
        #expect(try store.execute(entries) == .count(7))
    }
}
