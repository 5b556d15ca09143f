import Foundation
import Strata
import StrataConformance
import StrataConformanceTesting
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// The negative control of `K.batchLoadsSeeOtherOpeningsSaves`: an SQLite store whose batch
/// loads keep every snapshot they read, forgetting one only when a save of its own opening
/// changes it, fails that check and no other concurrency check.
@Suite struct BatchCacheNegativeControlTests {
    /// The SQLite store with a batch-load cache that saves through other openings do not reach.
    final class CachingStore: ForwardingStore, @unchecked Sendable {
        // Safe: the cache is guarded by its lock.
        /// What batch loads read, by object; kept for the opening's life.
        private let cache = Locked<[ObjectID: Snapshot]>([:])

        override func snapshots(for objectIDs: [ObjectID]) throws -> [Snapshot] {
            let cached = cache.withLock { cache in objectIDs.compactMap { cache[$0] } }
            if cached.count == objectIDs.count { return cached }
            let loaded = try base.snapshots(for: objectIDs)
            cache.withLock { cache in for snapshot in loaded { cache[snapshot.objectID] = snapshot } }
            return loaded
        }

        override func save(_ changes: StoreChangeSet) throws {
            try base.save(changes)
            cache.withLock { cache in
                for change in changes.updated { cache[change.objectID] = nil }
                for change in changes.deleted { cache[change.objectID] = nil }
            }
        }
    }

    static let cachingSQLite = StoreType(
        name: "CachingSQLite",
        open: { CachingStore(try SQLiteStoreFile.open($0)) },
        readMetadata: { try SQLiteStoreFile.readMetadata(at: $0.path) },
        writeMetadata: { try SQLiteStoreFile.writeMetadata($0, at: $1.path) },
        destroy: { try SQLiteStoreFile.destroy(at: $0.path) })

    @Test func aBatchCacheOtherOpeningsDoNotReachFailsTheBatchLoadCheck() {
        let suite = ConformanceSuite(
            storeType: Self.cachingSQLite, storage: .file(pathExtension: "sqlite"), seed: 1)
        let failed = suite.checks.filter { $0.category == .concurrency }.filter { check in
            if case .failed = suite.run(check).outcome { return true }
            return false
        }.map(\.id)
        #expect(failed == ["K.batchLoadsSeeOtherOpeningsSaves"])
    }
}
