import Strata

/// The one statement a fetch runs (``PostgresStore/fetchStatement(for:)``), with what the core
/// evaluates on its rows: ``PostgresStore/execute(_:)`` runs it, ``PostgresStore/explain(_:)``
/// shows it.
struct PostgresFetchStatement {
    let sql: String
    let parameters: [PostgresValue]
    let reader: PostgresRowReader
    /// The parts of the predicate with no SQL form, evaluated in memory on the rows read.
    let residual: [FetchPredicate]
    /// Whether the core filters, sorts and pages the rows: some of the predicate or of the
    /// sort has no SQL form, so the statement reads every candidate in primary-key order.
    let isInMemory: Bool
    /// Whether the statement computes arithmetic, which the server may refuse with a data
    /// exception where the evaluator has an answer.
    let computesArithmetic: Bool
}
