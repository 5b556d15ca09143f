import Foundation
import Logging

/// What a PostgreSQL store logs of the statements it sends, to the logger its coordinator gave
/// it (docs/POSTGRES.md): statements slower than a threshold, at `warning`, always; and,
/// switched on by the `STRATA_SQL_DEBUG` environment variable, at `info`, as the SQLite store
/// does:
/// - `1`: every statement as it is sent;
/// - `2`: also its bound values and how long it took (a pipeline's statements, how long the
///   pipeline took);
/// - `4`: also the plan of each fetch (`EXPLAIN`).
///
/// Statements are timed only when something would be logged: at debug level 0 with a logger
/// that drops warnings, nothing is timed.
final class PostgresStatementTrace: Sendable {
    /// The level of `STRATA_SQL_DEBUG`; 0 when it is not set.
    static let environmentLevel: Int =
        ProcessInfo.processInfo.environment["STRATA_SQL_DEBUG"].flatMap { Int($0) } ?? 0

    let logger: Logger
    /// Statements that take at least this long are logged as slow.
    let slowStatementThreshold: Duration
    /// The debug level: ``environmentLevel`` unless a test gives another.
    let level: Int
    /// The store as log lines name it (`store.url`): its URL without a password.
    let storeName: String

    init(logger: Logger, slowStatementThreshold: Duration, storeName: String, level: Int = environmentLevel) {
        self.logger = logger
        self.slowStatementThreshold = slowStatementThreshold
        self.storeName = storeName
        self.level = level
    }

    /// Whether statements are timed and logged at all.
    var isTracing: Bool { level > 0 || logger.logLevel <= .warning }

    /// Logs `sql`, run with `parameters` in `elapsed`, as the level and the threshold ask.
    func ran(_ sql: String, _ parameters: [PostgresValue], elapsed: Duration) {
        if elapsed >= slowStatementThreshold {
            logger.warning(
                "Slow SQL statement",
                metadata: [
                    "store.url": "\(storeName)", "sql": "\(sql)", "milliseconds": "\(Self.milliseconds(elapsed))",
                ])
        }
        switch level {
        case ..<1: return
        case 1: logger.info("SQL \(sql)")
        default: logger.info("SQL \(sql)\(Self.describe(parameters)) [\(Self.milliseconds(elapsed)) ms]")
        }
    }

    /// Logs `statements`, sent together in one pipeline that took `elapsed`: the pipeline is
    /// slow when it took at least the threshold, and its statements are named once each.
    func ranPipeline(_ statements: ArraySlice<(sql: String, parameters: [PostgresValue])>, elapsed: Duration) {
        if elapsed >= slowStatementThreshold {
            var seen: Set<String> = []
            let distinct = statements.map(\.sql).filter { seen.insert($0).inserted }
            logger.warning(
                "Slow SQL pipeline",
                metadata: [
                    "store.url": "\(storeName)", "sql": "\(distinct.joined(separator: "; "))",
                    "statements": "\(statements.count)", "milliseconds": "\(Self.milliseconds(elapsed))",
                ])
        }
        guard level > 0 else { return }
        for statement in statements {
            logger.info("SQL \(statement.sql)\(level >= 2 ? Self.describe(statement.parameters) : "")")
        }
        if level >= 2 {
            logger.info("SQL pipeline of \(statements.count) statements [\(Self.milliseconds(elapsed)) ms]")
        }
    }

    /// Logs the plan of the fetch `sql` with `parameters` on `connection`, at level 4 and above.
    func explain(_ sql: String, _ parameters: [PostgresValue], on connection: PostgresConnection) {
        guard level >= 4 else { return }
        do {
            let plan = try connection.execute("EXPLAIN " + sql, parameters)
            let steps = (0..<plan.rowCount).map { row in
                plan.bytes(row, 0).map { String(decoding: $0, as: UTF8.self) } ?? ""
            }
            logger.info("PLAN \(sql)\n  \(steps.joined(separator: "\n  "))")
        } catch {
            logger.info("PLAN \(sql) could not be explained: \(error)")
        }
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.3f", Double(seconds) * 1_000 + Double(attoseconds) / 1e15)
    }

    /// `parameters` as a log line shows them after the statement: ` -- $1 = 3, $2 = 'Oslo'`.
    private static func describe(_ parameters: [PostgresValue]) -> String {
        guard !parameters.isEmpty else { return "" }
        return " -- "
            + parameters.enumerated().map { "$\($0.offset + 1) = \($0.element.traceDescription)" }
            .joined(separator: ", ")
    }
}

extension PostgresValue {
    /// The value as a statement trace shows it: text and UTF-8 bytes quoted, other bytes in hex.
    fileprivate var traceDescription: String {
        switch self {
        case .null: "NULL"
        case .smallint(let n): "\(n)"
        case .integer(let n): "\(n)"
        case .bigint(let n): "\(n)"
        case .real(let n): "\(n)"
        case .double(let n): "\(n)"
        case .boolean(let flag): flag ? "true" : "false"
        case .bytes(let bytes):
            String(validating: bytes, as: UTF8.self).map { "'\($0)'" }
                ?? "'\\x" + bytes.map { String(format: "%02x", $0) }.joined() + "'"
        case .text(let text), .numeric(let text), .array(let text): "'\(text)'"
        case .uuid(let uuid): "'\(uuid.uuidString.lowercased())'"
        }
    }
}
