import Strata

/// How Strata's SQLite store is opened, as ``Strata/StoreType/sqlite(_:)`` and
/// ``Strata/PersistentStoreDescription/sqlite(at:configuration:options:)`` take it. An option
/// left `nil` comes from the store's string settings, as a store opened by name reads them
/// (`poolSize`, and `busyTimeout`, `slowStatementThreshold` and `maximumGenerationAge` in
/// milliseconds), or else its default.
public struct SQLiteStoreOptions: Sendable, Hashable {
    /// The most reader connections: by default twice the processor count, at least 2 and at
    /// most 16; 1 runs every read on the writer; clamped to 1...64.
    public var poolSize: Int?
    /// How long to wait for another process's lock before a read or save fails: by default
    /// 10 seconds; clamped to 0...600 seconds.
    public var busyTimeout: Duration?
    /// Statements that take at least this long are logged, with their SQL and time, as warnings to the
    /// coordinator's logger: by default half a second.
    public var slowStatementThreshold: Duration?
    /// How long a query generation's read view may hold its read transaction (which keeps WAL
    /// checkpoints from going past it, so that the `-wal` file grows with every save): a view
    /// older than this is released at the next save or read, and reading it then fails with
    /// `StoreError.Code.generationUnavailable`. By default 15 minutes; clamped to 1 second...24 hours.
    public var maximumGenerationAge: Duration?

    /// Creates options; `nil` keeps the default.
    public init(
        poolSize: Int? = nil, busyTimeout: Duration? = nil, slowStatementThreshold: Duration? = nil,
        maximumGenerationAge: Duration? = nil
    ) {
        self.poolSize = poolSize
        self.busyTimeout = busyTimeout
        self.slowStatementThreshold = slowStatementThreshold
        self.maximumGenerationAge = maximumGenerationAge
    }
}
