import CStrataSQLite

/// Owns one prepared statement (`sqlite3_stmt *`) of a ``SQLiteConnection``: values are bound
/// by position, rows read by column index. Used only on its connection's thread.
package final class SQLiteStatement {
    /// The SQL text the statement was prepared from.
    let sql: String
    private let handle: OpaquePointer
    private let connection: OpaquePointer

    /// Prepares `sql` on `connection`. Calls `sqlite3_prepare_v3`.
    init(sql: String, connection: OpaquePointer, persistent: Bool) throws(SQLiteError) {
        var statement: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let resultCode = sqlite3_prepare_v3(connection, sql, -1, flags, &statement, nil)
        guard resultCode == SQLITE_OK, let statement else {
            throw SQLiteError(resultCode: resultCode, connection: connection, sql: sql)
        }
        self.sql = sql
        self.handle = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to the parameters `?1`, `?2`, … after clearing earlier bindings.
    /// Calls `sqlite3_bind_*`; text and blobs are copied (`SQLITE_TRANSIENT`).
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let resultCode: Int32
            switch value {
            case .null: resultCode = sqlite3_bind_null(handle, index)
            case .integer(let number): resultCode = sqlite3_bind_int64(handle, index, number)
            case .real(let number): resultCode = sqlite3_bind_double(handle, index, number)
            case .text(let text):
                resultCode = sqlite3_bind_text64(
                    handle, index, text, UInt64(text.utf8.count), strata_sqlite_transient(), UInt8(SQLITE_UTF8))
            case .blob(let bytes):
                resultCode = bytes.withUnsafeBytes { buffer in
                    // A zero-length blob needs a non-null pointer, or SQLite binds NULL.
                    sqlite3_bind_blob64(
                        handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(buffer.count),
                        strata_sqlite_transient())
                }
            }
            try check(resultCode)
        }
    }

    /// Advances to the next row; `false` when the statement is done. Calls `sqlite3_step`.
    func step() throws(SQLiteError) -> Bool {
        let resultCode = sqlite3_step(handle)
        switch resultCode {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(handle)
            throw SQLiteError(resultCode: resultCode, connection: connection, sql: sql)
        }
    }

    /// Runs the statement to completion with `values` bound, ignoring any rows.
    package func execute(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
        sqlite3_reset(handle)
    }

    /// Runs the statement with `values` bound and returns every row, read by `row`.
    package func rows<Row>(_ values: [SQLiteValue] = [], _ row: (SQLiteStatement) throws(SQLiteError) -> Row)
        throws(SQLiteError) -> [Row]
    {
        try bind(values)
        defer { sqlite3_reset(handle) }
        var result: [Row] = []
        while try step() { result.append(try row(self)) }
        return result
    }

    /// Makes the statement ready to run again, keeping its bindings. Calls `sqlite3_reset`.
    func reset() { sqlite3_reset(handle) }

    /// The number of columns in a result row. Calls `sqlite3_column_count`.
    var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The value of column `index` (from 0) of the current row. Calls `sqlite3_column_*`.
    package func value(at index: Int) -> SQLiteValue {
        let column = Int32(index)
        switch sqlite3_column_type(handle, column) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, column))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, column))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard let text = sqlite3_column_text(handle, column) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, column))
            guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    private func check(_ resultCode: Int32) throws(SQLiteError) {
        guard resultCode == SQLITE_OK else {
            throw SQLiteError(resultCode: resultCode, connection: connection, sql: sql)
        }
    }
}

@available(*, unavailable) extension SQLiteStatement: Sendable {}

extension SQLiteStatement {
    /// Runs the statement with `values` bound and returns every row, read by `row`, which may
    /// throw any error.
    func rowsThrowing<Row>(_ values: [SQLiteValue], _ row: (SQLiteStatement) throws -> Row) throws -> [Row] {
        try bind(values)
        defer { reset() }
        var result: [Row] = []
        while try step() { result.append(try row(self)) }
        return result
    }
}
