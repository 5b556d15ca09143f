import Synchronization

/// Counts of how the store answered fetches, so that tests can tell a fetch that ran wholly
/// in SQL from one that fell back to the in-memory evaluator.
final class SQLiteStoreStatistics: Sendable {
    private let counts = Mutex<(pushedDown: Int, evaluatedInMemory: Int)>((0, 0))

    /// Fetches whose predicate and sort ran wholly in SQL.
    var pushedDownFetches: Int { counts.withLock { $0.pushedDown } }
    /// Fetches that evaluated part of their predicate or sort in memory.
    var inMemoryFetches: Int { counts.withLock { $0.evaluatedInMemory } }

    func recordFetch(inMemory: Bool) {
        counts.withLock { counts in
            if inMemory { counts.evaluatedInMemory += 1 } else { counts.pushedDown += 1 }
        }
    }
}
