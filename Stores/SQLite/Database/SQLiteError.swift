import CStrataSQLite

/// A failure reported by SQLite: its result code, its message and, when a statement was
/// involved, the SQL text.
package struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, `SQLITE_CONSTRAINT_UNIQUE`, …).
    let extendedCode: Int32
    /// SQLite's own description of the failure (`sqlite3_errmsg`, or `sqlite3_errstr`).
    package let message: String
    /// The statement that failed, if any.
    let sql: String?

    /// The primary result code: the low byte of ``extendedCode``.
    package var code: Int32 { extendedCode & 0xFF }

    /// Reads the error of `connection` for the result code `resultCode`. Calls
    /// `sqlite3_extended_errcode` and `sqlite3_errmsg` when a connection is at hand,
    /// `sqlite3_errstr` otherwise.
    init(resultCode: Int32, connection: OpaquePointer?, sql: String? = nil) {
        if let connection {
            extendedCode = sqlite3_extended_errcode(connection)
            message = String(cString: sqlite3_errmsg(connection))
        } else {
            extendedCode = resultCode
            message = String(cString: sqlite3_errstr(resultCode))
        }
        self.sql = sql
    }

    /// The error of a write to a database whose file was replaced or removed since the
    /// connection opened it (`SQLITE_READONLY_DBMOVED`).
    static let databaseMoved = SQLiteError(
        extendedCode: SQLITE_READONLY | (4 << 8),
        message: "the database file was replaced or removed since the connection opened it", sql: nil)

    private init(extendedCode: Int32, message: String, sql: String?) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// Whether the database's file was replaced or removed since the connection opened it.
    var isDatabaseMoved: Bool { extendedCode == Self.databaseMoved.extendedCode }

    /// Whether another connection holds a lock this one needed (`SQLITE_BUSY` or `SQLITE_LOCKED`).
    var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    /// Whether the file is damaged or not a database (`SQLITE_CORRUPT` or `SQLITE_NOTADB`).
    var isCorruption: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }

    package var description: String {
        let statement = sql.map { " in `\($0)`" } ?? ""
        return "SQLite error \(extendedCode): \(message)\(statement)"
    }
}
