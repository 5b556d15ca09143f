import Strata

/// What `strata query --explain` prints: how the store runs the query's fetch, from its
/// ``StoreFetchExplanation``.
struct QueryExplanation {
    let text: String

    /// The explanation of `query`'s fetch (its count with `count`) by `store`, as the context
    /// hands it over: the objects' IDs first, their values in batches.
    init(_ query: QueryRequest, count: Bool, store: any IncrementalStore) throws {
        guard let explaining = store as? any FetchExplaining else {
            throw CommandFailure(description: "The \(store.typeName) store does not explain its fetches.")
        }
        let request = query.request
        let explanation = try explaining.explain(
            StoreFetchRequest(
                entityName: request.entityName, includesSubentities: request.includesSubentities,
                predicate: request.predicate, sortDescriptors: request.sortDescriptors,
                fetchOffset: request.fetchOffset, fetchLimit: request.fetchLimit,
                resultType: count ? .count : .objectIDs))
        var lines = ["Store: \(store.typeName)", "Steps:"]
        lines += explanation.steps.enumerated().map { "  \($0.offset + 1). \($0.element)" }
        if !explanation.enginePlan.isEmpty {
            lines.append("Engine plan:")
            lines += explanation.enginePlan.map { "  \($0)" }
        }
        if !explanation.evaluatedPerRow.isEmpty {
            lines.append("Evaluated by Strata on each row, inside the engine:")
            lines += explanation.evaluatedPerRow.map { "  \($0.description)" }
        }
        lines.append("Evaluated by Strata in memory:" + (explanation.evaluatedInMemory.isEmpty ? " nothing" : ""))
        lines += explanation.evaluatedInMemory.map { "  \($0.description)" }
        if !count {
            lines.append("Sorted and paged: " + (explanation.sortsInMemory ? "by Strata in memory" : "by the store"))
        }
        text = lines.joined(separator: "\n")
    }
}
