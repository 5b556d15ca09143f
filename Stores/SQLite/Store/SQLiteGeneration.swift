import Foundation
import Strata

/// A query generation's read view of an SQLite store: one read transaction on a connection of
/// the store's pool, begun when the view opens and held, outside the readers' count, until
/// the view is released (docs/GENERATIONS.md). In WAL mode the transaction keeps reading the
/// state it began with, whatever this or another process commits since.
///
/// `@unchecked Sendable`: the connection, and whether the view was released, are used only
/// while `lock` is held, so the view's reads run one at a time.
final class SQLiteGeneration: StoreGeneration, ReleasableGeneration, @unchecked Sendable {
    private let store: SQLiteStore
    /// When the view's transaction began.
    let opened = ContinuousClock.now
    private let lock = NSLock()
    private var connection: SQLiteConnection?
    private let checkedOutIn: Int
    /// Why the view was released, once it is.
    private var releaseReason = ""

    init(store: SQLiteStore) throws {
        self.store = store
        let (connection, checkedOutIn) = try store.pool.checkOutHeld()
        do {
            try connection.execute(script: "BEGIN DEFERRED")
            // SQLite takes the transaction's view of the WAL at its first read, not at BEGIN.
            _ = try connection.cachedStatement("SELECT count(*) FROM sqlite_master").rows([]) { $0.value(at: 0) }
        } catch {
            try? connection.execute(script: "ROLLBACK")
            store.pool.checkInHeld(connection, checkedOutIn: checkedOutIn)
            throw error
        }
        self.connection = connection
        self.checkedOutIn = checkedOutIn
    }

    deinit { release(because: "") }

    /// Runs `body` with the view's connection, inside its transaction.
    ///
    /// - Throws: `StoreError/Code/generationUnavailable` when the view was released, or is
    ///   older than the store's maximum age (it is released then).
    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        if connection != nil, opened.duration(to: .now) > store.maximumGenerationAge {
            releaseLocked(because: "it outlived the store's maximum generation age of \(store.maximumGenerationAge)")
        }
        guard let connection else {
            throw StoreError.generationReleased(by: store.storeName, because: releaseReason)
        }
        return try body(connection)
    }

    /// Ends the view's transaction and hands its connection back to the pool; later reads
    /// fail, naming `reason`.
    func release(because reason: String) {
        lock.lock()
        defer { lock.unlock() }
        releaseLocked(because: reason)
    }

    private func releaseLocked(because reason: String) {
        guard let connection else { return }
        try? connection.execute(script: "ROLLBACK")
        store.pool.checkInHeld(connection, checkedOutIn: checkedOutIn)
        self.connection = nil
        releaseReason = reason
    }

    func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        try store.execute(request, in: self)
    }

    func snapshot(for objectID: ObjectID) throws -> Snapshot? {
        try store.snapshot(for: objectID, in: self)
    }

    func snapshots(for objectIDs: [ObjectID]) throws -> [Snapshot] {
        try store.snapshots(for: objectIDs, in: self)
    }

    func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        try store.relatedObjectIDs(of: objectID, relationship: relationship, in: self)
    }

    func relatedObjectIDs(ofEach objectIDs: [ObjectID], relationship: String) throws -> [ObjectID: [ObjectID]] {
        try store.relatedObjectIDs(ofEach: objectIDs, relationship: relationship, in: self)
    }
}
