import CStrataSQLite

/// Owns one database connection (`sqlite3 *`) and the statements prepared on it. A connection
/// is used by one thread at a time: the store that owns it hands it out from its pool.
package final class SQLiteConnection {
    /// How a connection opens its file.
    package enum Mode: Sendable {
        /// Read only; the file must exist. The file is opened for writing when the system allows
        /// it, with `PRAGMA query_only` refusing every change: only a connection that may write
        /// removes a WAL store's `-wal` and `-shm` files when it is the last to close, so that
        /// reading a store leaves its folder as it was. Without write access it opens read-only.
        case readOnly
        /// Read and write; the file must exist.
        case readWrite
        /// Read and write, creating the file when missing.
        case readWriteCreate

        fileprivate var flags: Int32 {
            let base = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
            switch self {
            case .readOnly, .readWrite: return base | SQLITE_OPEN_READWRITE
            case .readWriteCreate: return base | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
            }
        }
    }

    /// The path of the database file.
    let path: String
    let handle: OpaquePointer
    private var cachedStatements: [String: SQLiteStatement] = [:]
    /// The trace logging this connection's statements, kept alive while the connection is.
    var trace: SQLiteDebugTrace?
    /// What `strata_evaluate` evaluates for the statement running now.
    let rowEvaluations = SQLiteRowEvaluations.Slot()

    /// Opens the database at `path`, waiting up to `busyTimeoutMilliseconds` for locks held by
    /// other connections. Calls `sqlite3_open_v2` and `sqlite3_busy_timeout`.
    package init(path: String, mode: Mode, busyTimeoutMilliseconds: Int32 = 5_000) throws(SQLiteError) {
        var connection: OpaquePointer?
        let resultCode = sqlite3_open_v2(path, &connection, mode.flags, nil)
        guard resultCode == SQLITE_OK, let connection else {
            let error = SQLiteError(resultCode: resultCode, connection: connection)
            sqlite3_close_v2(connection)  // a failed open may still allocate a handle
            throw error
        }
        self.path = path
        self.handle = connection
        sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
        if mode == .readOnly { try execute(script: "PRAGMA query_only = 1") }
    }

    deinit {
        emptyWriteAheadLogIfMoved()
        // Statements hold the connection open (`sqlite3_close_v2` defers closing until the
        // last one is finalized), so the order in which they go does not matter.
        cachedStatements.removeAll()
        // A handle whose closing waits for a statement must not call back into a trace that
        // goes away with this connection.
        if trace != nil { sqlite3_trace_v2(handle, 0, nil, nil) }
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements without parameters, such as a schema script. Calls
    /// `sqlite3_exec`.
    package func execute(script sql: String) throws(SQLiteError) {
        let resultCode = sqlite3_exec(handle, sql, nil, nil, nil)
        guard resultCode == SQLITE_OK else { throw SQLiteError(resultCode: resultCode, connection: handle, sql: sql) }
    }

    /// A prepared statement for `sql`, reused across calls with the same text.
    package func cachedStatement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = cachedStatements[sql] { return statement }
        let statement = try SQLiteStatement(sql: sql, connection: handle, persistent: true)
        cachedStatements[sql] = statement
        return statement
    }

    /// A new prepared statement for `sql`, for text that is not worth caching.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(sql: sql, connection: handle, persistent: false)
    }

    /// Runs `body` in a transaction: committed when `body` returns, rolled back when it
    /// throws. An `IMMEDIATE` transaction takes the write lock at once, so that a writer waits
    /// for another process's writer at the start rather than failing midway; it fails with
    /// ``SQLiteError/databaseMoved`` when the main database's path no longer names the file
    /// the connection has open, as in WAL mode SQLite would write on to the old file.
    package func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        try cachedStatement(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED").execute()
        if immediate, hasMoved {
            sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
            emptyWriteAheadLogIfMoved()
            throw SQLiteError.databaseMoved
        }
        do {
            let result = try body()
            try cachedStatement("COMMIT").execute()
            return result
        } catch {
            // Rolling back after a failed COMMIT or statement is cleanup: the first error is the one to report.
            if sqlite3_get_autocommit(handle) == 0 { sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    /// Whether the main database's path no longer names the file the connection has open
    /// (`SQLITE_FCNTL_HAS_MOVED`).
    private var hasMoved: Bool {
        var moved: Int32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved != 0
    }

    /// When the main database's file was replaced or removed, copies the `-wal` file into the
    /// old file and empties it (`SQLITE_CHECKPOINT_TRUNCATE`). SQLite skips the checkpoint
    /// when closing a moved database and leaves the `-wal` file, whose pages the next opening
    /// would then lay over the replacement's.
    private func emptyWriteAheadLogIfMoved() {
        guard hasMoved else { return }
        sqlite3_wal_checkpoint_v2(handle, "main", SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
    }

    /// The number of rows the last `INSERT`, `UPDATE` or `DELETE` changed. Calls `sqlite3_changes64`.
    var changes: Int64 { sqlite3_changes64(handle) }
}

@available(*, unavailable) extension SQLiteConnection: Sendable {}
