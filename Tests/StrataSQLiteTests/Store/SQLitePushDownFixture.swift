import Foundation
import Strata
import StrataTestSupport

@testable import StrataSQLite

/// An SQLite store and an in-memory store with the same identifier holding the same people,
/// teams and tags, so that a fetch's answer from SQL can be compared with the evaluator's.
struct SQLitePushDownFixture {
    let directory: TemporaryDirectory
    let sqlite: SQLiteStore
    let oracle: any IncrementalStore

    /// A coordinator with an SQLite store of ``PushDownGraph/model`` at `url`, and the store.
    static func coordinator(with url: URL) throws -> (PersistentStoreCoordinator, SQLiteStore) {
        let coordinator = try PersistentStoreCoordinator(model: PushDownGraph.model, storeTypes: [.sqlite])
        let store = try SQLiteStoreFile.open(StoreOpenRequest(model: PushDownGraph.model, url: url))
        try coordinator.add(store)
        return (coordinator, store)
    }

    init() throws {
        directory = try TemporaryDirectory()
        let identifier = UUID().uuidString
        let request = StoreOpenRequest(
            model: PushDownGraph.model, url: directory.file("people.sqlite"), identifierForNewStore: identifier)
        sqlite = try SQLiteStoreFile.open(request)
        oracle = try InMemoryStore.open(StoreOpenRequest(model: PushDownGraph.model, identifierForNewStore: identifier))
        let changes = try PushDownGraph.changeSet(ids: sqlite)
        try sqlite.save(changes)
        try oracle.save(changes)
    }
}
