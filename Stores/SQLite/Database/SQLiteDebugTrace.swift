import CStrataSQLite
import Foundation
import Logging

/// SQL tracing, switched on by the `STRATA_SQL_DEBUG` environment variable and logged through
/// swift-log under `strata.sqlite`:
/// - `1`: every statement as it ran;
/// - `2`: also its bound values and how long it took;
/// - `4`: also the query plan of each fetch (`EXPLAIN QUERY PLAN`).
enum SQLiteDebugTrace {
    /// The level from the environment; 0 when tracing is off.
    static let level: Int = ProcessInfo.processInfo.environment["STRATA_SQL_DEBUG"].flatMap { Int($0) } ?? 0

    static let logger = Logger(label: "strata.sqlite")

    /// Traces the statements `connection` runs, as ``level`` asks. Calls `sqlite3_trace_v2`.
    static func install(on connection: SQLiteConnection) {
        guard level > 0 else { return }
        sqlite3_trace_v2(
            connection.handle, UInt32(SQLITE_TRACE_PROFILE),
            { _, _, statement, elapsed in
                guard let statement = OpaquePointer(statement) else { return 0 }
                if SQLiteDebugTrace.level >= 2, let expanded = sqlite3_expanded_sql(statement) {
                    defer { sqlite3_free(expanded) }
                    let nanoseconds = elapsed?.load(as: Int64.self) ?? 0
                    let milliseconds = String(format: "%.3f", Double(nanoseconds) / 1_000_000)
                    SQLiteDebugTrace.logger.info("SQL \(String(cString: expanded)) [\(milliseconds) ms]")
                } else if let text = sqlite3_sql(statement) {
                    SQLiteDebugTrace.logger.info("SQL \(String(cString: text))")
                }
                return 0
            }, nil)
    }

    /// Logs the query plan of `sql` with `parameters` on `connection`, at level 4 and above.
    static func explain(_ sql: String, _ parameters: [SQLiteValue], on connection: SQLiteConnection) {
        guard level >= 4 else { return }
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
