/// How a store runs one fetch: what it asks its engine to do, and which parts of the request
/// Strata's evaluator works out instead. `strata query --explain` prints it.
///
/// A store makes it from the same plan its ``StoreReading/execute(_:)`` runs, so that it
/// describes the fetch as it happens, not a guess.
public struct StoreFetchExplanation: Sendable, Hashable {
    /// The statements or steps the store runs, in order: SQL text for an SQL store, the
    /// records or index ranges it reads for a key-value store.
    public var steps: [String]
    /// How the store's engine plans the steps, when it says (SQLite's `EXPLAIN QUERY PLAN`),
    /// one line each.
    public var enginePlan: [String]
    /// The parts of the predicate Strata's evaluator works out on each row inside the store's
    /// engine (SQLite's `strata_evaluate`), so that the engine still filters, sorts and pages.
    public var evaluatedPerRow: [FetchPredicate]
    /// The parts of the predicate Strata evaluates in memory, on the objects the steps read.
    public var evaluatedInMemory: [FetchPredicate]
    /// Whether Strata sorts and pages the matching objects in memory, not the engine.
    public var sortsInMemory: Bool

    /// Creates an explanation.
    public init(
        steps: [String], enginePlan: [String] = [], evaluatedPerRow: [FetchPredicate] = [],
        evaluatedInMemory: [FetchPredicate] = [], sortsInMemory: Bool
    ) {
        self.steps = steps
        self.enginePlan = enginePlan
        self.evaluatedPerRow = evaluatedPerRow
        self.evaluatedInMemory = evaluatedInMemory
        self.sortsInMemory = sortsInMemory
    }
}

/// A store that says how it runs a fetch, as a ``StoreFetchExplanation``.
public protocol FetchExplaining {
    /// How the store runs `request`: what ``StoreReading/execute(_:)`` would do with it now.
    ///
    /// - Throws: what `execute` throws for a request it refuses, such as an unknown entity.
    func explain(_ request: StoreFetchRequest) throws -> StoreFetchExplanation
}
