import CStrataSQLite
import Foundation
import Logging

/// What an SQLite store logs of the statements it runs, to the logger its coordinator gave it:
/// statements slower than a threshold, at `warning`, always; and, switched on by the
/// `STRATA_SQL_DEBUG` environment variable, at `info`:
/// - `1`: every statement as it ran;
/// - `2`: also its bound values and how long it took;
/// - `4`: also the query plan of each fetch (`EXPLAIN QUERY PLAN`).
///
/// A connection traces only when something would be logged: at debug level 0 with a logger
/// that drops warnings, statements run untraced.
final class SQLiteDebugTrace: Sendable {
    /// The level from the environment; 0 when tracing is off.
    static let level: Int = ProcessInfo.processInfo.environment["STRATA_SQL_DEBUG"].flatMap { Int($0) } ?? 0

    let logger: Logger
    /// Statements that take at least this long are logged as slow (SQLite times them to the
    /// millisecond).
    let slowStatementNanoseconds: Int64

    init(logger: Logger, slowStatementThreshold: Duration) {
        self.logger = logger
        // Clamped to a day, so that any threshold fits in nanoseconds.
        let (seconds, attoseconds) = min(max(slowStatementThreshold, .zero), .seconds(86_400)).components
        slowStatementNanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// Whether a connection needs tracing at all.
    private var traces: Bool { Self.level > 0 || logger.logLevel <= .warning }

    /// Traces the statements `connection` runs, as the debug level and the logger ask; the
    /// connection keeps this trace alive. Calls `sqlite3_trace_v2`.
    func install(on connection: SQLiteConnection) {
        guard traces else { return }
        connection.trace = self
        sqlite3_trace_v2(
            connection.handle, UInt32(SQLITE_TRACE_PROFILE),
            { _, context, statement, elapsed in
                guard let context, let statement = OpaquePointer(statement) else { return 0 }
                let trace = Unmanaged<SQLiteDebugTrace>.fromOpaque(context).takeUnretainedValue()
                trace.log(statement, nanoseconds: elapsed?.load(as: Int64.self) ?? 0)
                return 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func log(_ statement: OpaquePointer, nanoseconds: Int64) {
        let milliseconds = String(format: "%.3f", Double(nanoseconds) / 1_000_000)
        if nanoseconds >= slowStatementNanoseconds, let text = sqlite3_sql(statement) {
            logger.warning(
                "Slow SQL statement", metadata: ["sql": "\(String(cString: text))", "milliseconds": "\(milliseconds)"])
        }
        guard Self.level > 0 else { return }
        if Self.level >= 2, let expanded = sqlite3_expanded_sql(statement) {
            defer { sqlite3_free(expanded) }
            logger.info("SQL \(String(cString: expanded)) [\(milliseconds) ms]")
        } else if let text = sqlite3_sql(statement) {
            logger.info("SQL \(String(cString: text))")
        }
    }

    /// Logs the query plan of `sql` with `parameters` on `connection`, at level 4 and above.
    func explain(_ sql: String, _ parameters: [SQLiteValue], on connection: SQLiteConnection) {
        guard Self.level >= 4 else { return }
        do {
            let steps = try connection.statement("EXPLAIN QUERY PLAN " + sql).rows(parameters) { row in
                if case .text(let detail) = row.value(at: 3) { return detail }
                return ""
            }
            logger.info("PLAN \(sql)\n  \(steps.joined(separator: "\n  "))")
        } catch {
            logger.info("PLAN \(sql) could not be explained: \(error)")
        }
    }
}
