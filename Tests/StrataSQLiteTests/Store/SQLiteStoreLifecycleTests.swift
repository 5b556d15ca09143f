import CStrataSQLite
import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// Destroying and replacing stores go through SQLite, so that connections still open elsewhere
/// see an empty or a whole new store, never a file removed or moved from under them.
@Suite struct SQLiteStoreLifecycleTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    private func coordinator() throws -> PersistentStoreCoordinator {
        try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [.sqlite])
    }

    private func count(_ store: any IncrementalStore) throws -> StoreFetchResult {
        try store.execute(StoreFetchRequest(entityName: "Entry", resultType: .count))
    }

    @Test func destroyingRemovesTheStoreAndItsSideFiles() throws {
        let url = directory.file("gone.sqlite")
        let first = try coordinator()
        try ContentionModel.writeEntries(3, as: "x", into: try first.addStore(type: "SQLite", at: url))
        let elsewhere = try coordinator()
        let stillOpen = try elsewhere.addStore(type: "SQLite", at: url, options: StoreOptions(isReadOnly: true))
        #expect(throws: StoreError.self) { try first.destroyStore(type: "SQLite", at: url) }
        try first.remove(try #require(first.store(at: url)))
        try first.destroyStore(type: "SQLite", at: url)
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(left.filter { $0.hasPrefix("gone.sqlite") }.isEmpty)
        #expect(throws: StoreError.self) { _ = try count(stillOpen) }
    }

    @Test func readingAStoreReadOnlyLeavesItsFolderAsItFoundIt() throws {
        let url = directory.file("kept.sqlite")
        try {
            let writer = try coordinator()
            try ContentionModel.writeEntries(3, as: "x", into: try writer.addStore(type: "SQLite", at: url))
        }()
        let before = try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
        try {
            let reader = try coordinator()
            let store = try reader.addStore(type: "SQLite", at: url, options: StoreOptions(isReadOnly: true))
            #expect(try count(store) == .count(3))
            #expect(throws: StoreError.self) { try ContentionModel.writeEntries(1, as: "y", into: store) }
            #expect(try reader.metadataForStore(type: "SQLite", at: url) != nil)
            try reader.remove(store)
        }()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == before)
    }

    @Test func removingAStoreClosesItsConnectionsAndAddingItAgainReopensThem() throws {
        let url = directory.file("closed.sqlite")
        let coordinator = try coordinator()
        let store = try coordinator.addStore(type: "SQLite", at: url)
        try ContentionModel.writeEntries(3, as: "x", into: store)
        #expect(try count(store) == .count(3))
        let sideFiles = [url.path + "-wal", url.path + "-shm"]
        #expect(sideFiles.allSatisfy { FileManager.default.fileExists(atPath: $0) })
        try coordinator.remove(store)
        #expect(!sideFiles.contains { FileManager.default.fileExists(atPath: $0) })
        try coordinator.add(store)
        #expect(try count(store) == .count(3))
        try coordinator.remove(store)
        #expect(!sideFiles.contains { FileManager.default.fileExists(atPath: $0) })
        try coordinator.add(store)
        try ContentionModel.writeEntries(2, as: "y", into: store)
        #expect(try count(store) == .count(5))
    }

    @Test func destroyingLeavesAFileThatIsNotSQLiteAlone() throws {
        let url = directory.file("notes.sqlite")
        let bytes = Data(repeating: 0x2A, count: 4096)
        try bytes.write(to: url)
        #expect {
            try coordinator().destroyStore(type: "SQLite", at: url)
        } throws: { ($0 as? StoreError)?.code == .corrupt }
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func replacingCopiesTheSourceUnderOpenReaders() throws {
        let (source, destination) = (directory.file("source.sqlite"), directory.file("destination.sqlite"))
        let writer = try coordinator()
        try ContentionModel.writeEntries(5, as: "source", into: try writer.addStore(type: "SQLite", at: source))
        try ContentionModel.writeEntries(2, as: "old", into: try writer.addStore(type: "SQLite", at: destination))
        let reader = try coordinator().addStore(
            type: "SQLite", at: destination, options: StoreOptions(isReadOnly: true))
        #expect(try count(reader) == .count(2))
        let replacing = try coordinator()
        try replacing.replaceStore(type: "SQLite", at: destination, withStoreFrom: source)
        #expect(try count(reader) == .count(5))
        #expect(
            try replacing.metadataForStore(type: "SQLite", at: destination)?.storeIdentifier
                == (try replacing.metadataForStore(type: "SQLite", at: source)?.storeIdentifier))
    }

    @Test func replacingRefusesAnOpenDestinationAndAMissingSource() throws {
        let stack = try coordinator()
        let destination = directory.file("open.sqlite")
        _ = try stack.addStore(type: "SQLite", at: destination)
        #expect {
            try stack.replaceStore(type: "SQLite", at: destination, withStoreFrom: directory.file("other.sqlite"))
        } throws: { ($0 as? StoreError)?.code == .inUse }
        #expect {
            try coordinator().replaceStore(
                type: "SQLite", at: directory.file("new.sqlite"), withStoreFrom: directory.file("missing.sqlite"))
        } throws: { ($0 as? StoreError)?.code == .unknownObject }
    }

    @Test func wholeFileStoresAreReplacedThroughTheirAtomicWrite() throws {
        let stack = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [.jsonFile()])
        let (source, destination) = (directory.file("a.json"), directory.file("b.json"))
        let store = try stack.addStore(type: StoreType.jsonFile().name, at: source)
        try ContentionModel.writeEntries(4, as: "json", into: store)
        try stack.replaceStore(type: StoreType.jsonFile().name, at: destination, withStoreFrom: source)
        let elsewhere = try PersistentStoreCoordinator(model: ContentionModel.model, storeTypes: [.jsonFile()])
        let copy = try elsewhere.addStore(type: StoreType.jsonFile().name, at: destination)
        #expect(try count(copy) == .count(4))
    }

    /// Regression: opening a store in rollback-journal mode (a byte flip in its header can make
    /// one) switched it to WAL at once, changing a file the open then refused.
    @Test func openingAStoreInAnotherJournalModeWritesNothingUntilItsFirstSave() throws {
        let url = directory.file("journal.sqlite")
        do {
            let first = try coordinator()
            try ContentionModel.writeEntries(2, as: "x", into: try first.addStore(type: "SQLite", at: url))
        }
        var handle: OpaquePointer?
        #expect(sqlite3_open(url.path, &handle) == SQLITE_OK)
        #expect(sqlite3_exec(handle, "PRAGMA journal_mode = DELETE", nil, nil, nil) == SQLITE_OK)
        sqlite3_close(handle)
        let before = try Data(contentsOf: url)
        #expect(before[18] == 1 && before[19] == 1, "rollback-journal mode in the header")

        let coordinator = try coordinator()
        let store = try coordinator.addStore(type: "SQLite", at: url)
        #expect(try count(store) == .count(2))
        #expect(try Data(contentsOf: url) == before)
        try ContentionModel.writeEntries(1, as: "y", into: store)
        let after = try Data(contentsOf: url)
        #expect(after[18] == 2 && after[19] == 2, "WAL mode in the header after the first save")
        #expect(try count(store) == .count(3))
    }
}
