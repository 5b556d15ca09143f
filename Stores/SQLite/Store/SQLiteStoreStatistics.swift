import Strata

/// Counts of how the store answered fetches and loads, so that tests can tell a fetch that ran
/// wholly in SQL from one that fell back to the in-memory evaluator, and batched loads from one
/// statement per object.
final class SQLiteStoreStatistics: Sendable {
    private let counts = Locked<(pushedDown: Int, evaluatedInMemory: Int, singleLoads: Int, batchLoads: Int)>(
        (0, 0, 0, 0))

    /// Fetches whose predicate and sort ran wholly in SQL.
    var pushedDownFetches: Int { counts.withLock { $0.pushedDown } }
    /// Fetches that evaluated part of their predicate or sort in memory.
    var inMemoryFetches: Int { counts.withLock { $0.evaluatedInMemory } }

    /// Statements that loaded one object's row or one object's to-many members.
    var singleLoads: Int { counts.withLock { $0.singleLoads } }
    /// Statements that loaded the rows or to-many members of a batch of objects.
    var batchLoads: Int { counts.withLock { $0.batchLoads } }

    func recordSingleLoad() { counts.withLock { $0.singleLoads += 1 } }

    func recordBatchLoad() { counts.withLock { $0.batchLoads += 1 } }

    func recordFetch(inMemory: Bool) {
        counts.withLock { counts in
            if inMemory { counts.evaluatedInMemory += 1 } else { counts.pushedDown += 1 }
        }
    }
}
