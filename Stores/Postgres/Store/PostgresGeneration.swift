import Foundation
import Strata

/// A query generation's read view of a PostgreSQL store: a connection of its own, outside the
/// store's pool, in one `REPEATABLE READ READ ONLY` transaction begun when the view opens and
/// held until the view is released (docs/GENERATIONS.md). The transaction keeps reading the
/// snapshot its first statement took, whatever any process commits since.
///
/// `@unchecked Sendable`: the connection, and whether the view was released, are used only
/// while `lock` is held, so the view's reads run one at a time.
final class PostgresGeneration: StoreGeneration, ReleasableGeneration, @unchecked Sendable {
    private let store: PostgresStore
    /// When the view's transaction began.
    let opened = ContinuousClock.now
    private let lock = NSLock()
    private var connection: PostgresConnection?
    /// Why the view was released, once it is.
    private var releaseReason = ""

    init(store: PostgresStore) throws {
        self.store = store
        do {
            let connection = try store.pool.connect()
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
            // PostgreSQL takes the transaction's snapshot at its first statement, not at BEGIN.
            try connection.execute("SELECT 1")
            self.connection = connection
        } catch {
            throw PostgresConnectionPool.storeError(error, location: store.location)
        }
    }

    deinit { release(because: "") }

    /// Runs `body` with the view's connection, inside its transaction.
    ///
    /// - Throws: `StoreError/Code/generationUnavailable` when the view was released, is older
    ///   than the store's maximum age, or lost its connection (it is released then).
    private func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        if connection != nil, opened.duration(to: .now) > store.settings.maximumGenerationAge {
            releaseLocked(
                because: "it outlived the store's maximum generation age of \(store.settings.maximumGenerationAge)")
        }
        guard let connection else { throw StoreError.generationReleased(by: store.storeName, because: releaseReason) }
        do {
            return try body(connection)
        } catch let error as PostgresError where error.isConnectionFailure {
            releaseLocked(because: "it lost its connection to the server (\(error))")
            throw StoreError.generationReleased(by: store.storeName, because: releaseReason)
        } catch {
            throw PostgresConnectionPool.storeError(error, location: store.location)
        }
    }

    /// Ends the view's transaction and closes its connection; later reads fail, naming
    /// `reason`.
    func release(because reason: String) {
        lock.lock()
        defer { lock.unlock() }
        releaseLocked(because: reason)
    }

    private func releaseLocked(because reason: String) {
        guard let connection else { return }
        if !connection.isClosed { _ = try? connection.execute("ROLLBACK") }
        self.connection = nil
        releaseReason = reason
    }

    func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        try withConnection { try store.execute(request, on: $0) }
    }

    func snapshot(for objectID: ObjectID) throws -> Snapshot? {
        try withConnection { try store.snapshot(for: objectID, on: $0) }
    }

    func snapshots(for objectIDs: [ObjectID]) throws -> [Snapshot] {
        try withConnection { try store.snapshots(for: objectIDs, on: $0) }
    }

    func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        try withConnection { try store.relatedObjectIDs(of: objectID, relationship: relationship, on: $0) }
    }

    func relatedObjectIDs(ofEach objectIDs: [ObjectID], relationship: String) throws -> [ObjectID: [ObjectID]] {
        try withConnection { try store.relatedObjectIDs(ofEach: objectIDs, relationship: relationship, on: $0) }
    }
}
