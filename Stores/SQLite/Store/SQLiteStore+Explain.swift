import Strata

extension SQLiteStore: FetchExplaining {
    /// The statement ``execute(_:)`` runs for `request`, with its bound values, and SQLite's
    /// `EXPLAIN QUERY PLAN` for it; the parts `strata_evaluate` works out on each row and those
    /// evaluated in memory.
    public func explain(_ request: StoreFetchRequest) throws -> StoreFetchExplanation {
        let statement = try fetchStatement(for: request)
        let plan = try read("explaining a fetch of \(request.entityName)", evaluating: statement.evaluations) {
            connection in
            try connection.statement("EXPLAIN QUERY PLAN " + statement.sql).rows(statement.parameters) { row in
                guard case .text(let detail) = row.value(at: 3) else { return "" }
                return detail
            }
        }
        let bound =
            statement.parameters.isEmpty
            ? "" : " -- bound: " + statement.parameters.map { $0.sqlLiteral ?? "\($0)" }.joined(separator: ", ")
        return StoreFetchExplanation(
            steps: [statement.sql + bound], enginePlan: plan, evaluatedPerRow: statement.evaluations.predicates,
            evaluatedInMemory: statement.remaining, sortsInMemory: statement.isInMemory)
    }
}
