import Strata

/// The one SQL statement a fetch runs (``SQLiteStore/fetchStatement(for:)``), with what the core
/// evaluates around it: ``SQLiteStore/execute(_:)`` runs it, ``SQLiteStore/explain(_:)`` shows it.
struct SQLiteFetchStatement {
    let sql: String
    let parameters: [SQLiteValue]
    let table: SQLiteSchema.EntityTable
    /// What `strata_evaluate` works out on each row while the statement runs.
    let evaluations: SQLiteRowEvaluations
    /// The parts of the predicate evaluated in memory on the rows the statement reads.
    let remaining: [FetchPredicate]
    /// Whether the core filters, sorts and pages the rows: some of the predicate or of the sort
    /// has no SQL form, so the statement reads every candidate in primary-key order.
    let isInMemory: Bool
    /// Whether the rows are put in primary-key order after reading, not by SQL.
    let sortsByKey: Bool
}
