import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// Making a new SQLite store: an empty database gets its tables under the write lock, so that
/// two openings at once (in two processes, say) make them once and the second opens the
/// first's store, and a maker stopped before its tables leaves a file the next opening uses.
@Suite struct SQLiteStoreCreationTests {
    static let model: ManagedObjectModel = {
        ManagedObjectModel { EntityDescription("Item") { AttributeDescription("name", .string) } }
    }()

    /// An empty database in WAL mode at `path`, as a maker stopped before its tables leaves it.
    static func emptyDatabase(at path: String) throws {
        let connection = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try connection.execute(script: "PRAGMA journal_mode = WAL")
    }

    @Test func anEmptyDatabaseOpensWritableAsANewStore() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("items.sqlite")
        try Self.emptyDatabase(at: url.path)
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.sqlite])
        let store = try coordinator.addStore(type: "SQLite", at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Item").setValue("one", forKey: "name")
            try context.save()
        }
        try coordinator.remove(store)
        let reopened = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.sqlite])
        let again = try reopened.addStore(type: "SQLite", at: url)
        #expect(again.identifier == store.identifier)
    }

    @Test func anEmptyDatabaseOpenedReadOnlyIsNotAStore() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("items.sqlite")
        try Self.emptyDatabase(at: url.path)
        let error = try #require(throws: StoreError.self) {
            try SQLiteStoreFile.open(
                StoreOpenRequest(model: Self.model, url: url, options: StoreOptions(isReadOnly: true)))
        }
        #expect(error.code == .corrupt)
        #expect(error.message.contains("holds no tables"))
    }

    @Test func openingsOfANewStoreAtOnceMakeItOnce() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("items.sqlite")
        let identifiers = Locked<[String]>([])
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let store = try SQLiteStoreFile.open(StoreOpenRequest(model: Self.model, url: url))
                identifiers.withLock { $0.append(store.identifier) }
                store.close()
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        #expect(Set(identifiers.withLock { $0 }).count == 1)
    }
}
