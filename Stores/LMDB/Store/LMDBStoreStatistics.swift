import Strata

/// Counts of how the store answered fetches, so that tests can tell a fetch that used an index
/// from one that read every record, and how many records were decoded.
final class LMDBStoreStatistics: Sendable {
    private let counts = Locked<(indexed: Int, scanned: Int, decoded: Int)>((0, 0, 0))

    /// Fetches whose candidates came from an index.
    var indexedFetches: Int { counts.withLock { $0.indexed } }
    /// Fetches that read every record of their entity.
    var scannedFetches: Int { counts.withLock { $0.scanned } }
    /// Records decoded into snapshots, by fetches and loads alike.
    var decodedRecords: Int { counts.withLock { $0.decoded } }

    func recordFetch(indexed: Bool) {
        counts.withLock { counts in
            if indexed { counts.indexed += 1 } else { counts.scanned += 1 }
        }
    }

    func recordDecoded() { counts.withLock { $0.decoded += 1 } }
}
