import Foundation
import Strata

/// A query generation's read view of an LMDB store: one liblmdb read transaction, begun when
/// the view opens and held until the view is released, which keeps reading the committed
/// state it began with whatever this or another process commits since (docs/GENERATIONS.md).
///
/// `@unchecked Sendable`: the transaction is used, and ended, only while `lock` is held, so its
/// calls never overlap; liblmdb lets a read transaction of an `MDB_NOTLS` environment move
/// between threads on those terms.
final class LMDBGeneration: StoreGeneration, ReleasableGeneration, @unchecked Sendable {
    private let store: LMDBStore
    let opened = ContinuousClock.now
    private let lock = NSLock()
    private var handle: OpaquePointer?
    /// Why the view was released, once it is.
    private var releaseReason = ""

    /// - Throws: `StoreError/Code/generationUnavailable` when query generations hold as many
    ///   read transactions as the environment allows them.
    init(store: LMDBStore) throws {
        self.store = store
        guard let handle = try store.environment.beginHeldRead() else {
            throw StoreError(
                code: .generationUnavailable,
                message: "\(store.storeName) holds \(store.environment.maximumHeldReads) query generations already, "
                    + "half its reader table; let contexts advance or drop tokens before pinning another.")
        }
        self.handle = handle
    }

    deinit { release(because: "") }

    /// Runs `body` in the view's transaction.
    ///
    /// - Throws: `StoreError/Code/generationUnavailable` when the view was released.
    func withTransaction<T>(_ body: (LMDBTransaction) throws -> T) throws -> T {
        lock.lock()
        defer { lock.unlock() }
        guard let handle else {
            throw StoreError.generationReleased(by: store.storeName, because: releaseReason)
        }
        return try store.environment.read(inHeld: handle, body)
    }

    func release(because reason: String) {
        lock.lock()
        defer { lock.unlock() }
        guard let handle else { return }
        store.environment.endHeldRead(handle)
        self.handle = nil
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
        try store.relatedObjectIDs(ofEach: [objectID], relationship: relationship, in: self)[objectID] ?? []
    }

    func relatedObjectIDs(ofEach objectIDs: [ObjectID], relationship: String) throws -> [ObjectID: [ObjectID]] {
        try store.relatedObjectIDs(ofEach: objectIDs, relationship: relationship, in: self)
    }
}
