import Strata

/// The labels and dimensions of the metrics ``MetricsAndTracing`` reports, and its span names.
///
/// | Label | Kind | Dimensions |
/// |---|---|---|
/// | `strata_operations_total` | counter | `operation`, `store_type`, `entity` (fetches, counts, batch requests) |
/// | `strata_operation_errors_total` | counter | as `strata_operations_total` |
/// | `strata_operation_duration` | timer | as `strata_operations_total` |
/// | `strata_fetched_objects_total` | counter | as `strata_operations_total` (fetches and counts) |
/// | `strata_written_objects_total` | counter | as `strata_operations_total`, and `change` (`inserted`, `updated`, `deleted`) |
/// | `strata_faults_fired_total` | counter | `store_type`, `entity` |
/// | `strata_save_conflicts_total` | counter | `store_type` |
/// | `strata_save_retries_total` | counter | `store_type` |
/// | `strata_remote_transactions_merged_total` | counter | `store_type` |
/// | `strata_connection_wait` | timer | `store_type` |
public enum MetricNames {
    /// Every fetch, count, save, batch request and migration.
    public static let operations = "strata_operations_total"
    /// The operations that threw.
    public static let operationErrors = "strata_operation_errors_total"
    /// How long operations took.
    public static let operationDuration = "strata_operation_duration"
    /// The objects (rows, or the count) fetches and counts returned.
    public static let fetchedObjects = "strata_fetched_objects_total"
    /// The objects saves and batch requests inserted, updated and deleted.
    public static let writtenObjects = "strata_written_objects_total"
    /// The faults fired.
    public static let faultsFired = "strata_faults_fired_total"
    /// The conflicts saves met.
    public static let saveConflicts = "strata_save_conflicts_total"
    /// The saves tried again after the merge policy settled their conflicts.
    public static let saveRetries = "strata_save_retries_total"
    /// The history transactions of other writers found in stores and merged.
    public static let remoteTransactionsMerged = "strata_remote_transactions_merged_total"
    /// How long stores waited for a connection of their pool.
    public static let connectionWait = "strata_connection_wait"

    /// The name of the span of an operation of `kind`: `strata.fetch`, `strata.save`, …
    public static func spanName(_ kind: ObservedOperation.Kind) -> String { "strata." + kind.rawValue }
}
