import CStrataPostgres
import Foundation
import Strata

/// One libpq connection. It is used by one thread at a time: the pool hands it out and takes
/// it back (``PostgresConnectionPool``).
final class PostgresConnection {
    private let handle: OpaquePointer
    /// How messages name the server, without a password.
    let serverName: String

    /// Connects with libpq's connection string `conninfo`, which also reads the password from
    /// the `PG*` environment variables or `~/.pgpass` when the string has none.
    init(conninfo: String, serverName: String) throws {
        guard let handle = PQconnectdb(conninfo) else {
            throw StoreError(code: .io, message: "Could not connect to PostgreSQL at \(serverName): out of memory.")
        }
        // Checked before the properties are set: once they are, a throwing initializer runs
        // `deinit`, which would finish the connection a second time.
        guard PQstatus(handle) == CONNECTION_OK else {
            let reason = Self.trimmed(PQerrorMessage(handle))
            PQfinish(handle)
            throw StoreError(code: .io, message: "Could not connect to PostgreSQL at \(serverName): \(reason)")
        }
        self.handle = handle
        self.serverName = serverName
        // Notices (such as "relation already exists, skipping") are not errors: keep them off stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// Whether the connection still works; a broken one is dropped by the pool.
    var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) == PQTRANS_IDLE }

    /// How many statements have succeeded on the connection.
    private(set) var completedStatements = 0

    /// The statements prepared on this connection.
    private var statements = PostgresStatementCache()

    /// Runs `sql` with `parameters` bound to `$1`, `$2`, … and returns its rows, read in the
    /// binary format. A statement run a second time with the same parameter types is prepared
    /// on the server and run prepared from then on (``PostgresStatementCache``).
    ///
    /// - Throws: ``PostgresError`` carrying the server's SQLSTATE and message.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws -> PostgresResult {
        let wires = parameters.map(\.wire)
        let types = wires.map(\.type)
        let formats = wires.map(\.format)
        let lengths = wires.map { Int32($0.bytes?.count ?? 0) }
        // Text-format values are read up to a NUL, binary ones by length: every buffer ends in one.
        let buffers = wires.map { wire -> UnsafeMutablePointer<CChar>? in
            guard let bytes = wire.bytes else { return nil }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            if !bytes.isEmpty {
                bytes.withUnsafeBytes {
                    UnsafeMutableRawPointer(buffer).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
                }
            }
            buffer[bytes.count] = 0
            return buffer
        }
        defer { for buffer in buffers { buffer?.deallocate() } }
        let values = buffers.map { UnsafePointer($0) }
        let count = Int32(parameters.count)
        let key = PostgresStatementCache.Key(sql: sql, types: types)
        let result: OpaquePointer?
        switch statements.plan(for: key) {
        case .runUnprepared:
            result = PQexecParams(handle, sql, count, types, values, lengths, formats, 1)
        case .run(let name):
            result = PQexecPrepared(handle, name, count, values, lengths, formats, 1)
        case .prepare(let name, let evicting):
            if let evicting { try check(PQexec(handle, "DEALLOCATE \(evicting)"), sql: "DEALLOCATE \(evicting)") }
            try check(PQprepare(handle, name, sql, count, types), sql: sql)
            statements.didPrepare(key, name: name)
            result = PQexecPrepared(handle, name, count, values, lengths, formats, 1)
        }
        guard let result else { throw PostgresError(connection: handle, result: nil, sql: sql) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            completedStatements += 1
            return PostgresResult(result)
        default:
            let error = PostgresError(connection: handle, result: result, sql: sql)
            PQclear(result)
            throw error
        }
    }

    /// Checks that `result`, the answer to a statement that returns no rows, succeeded, and frees it.
    private func check(_ result: OpaquePointer?, sql: String) throws {
        guard let result else { throw PostgresError(connection: handle, result: nil, sql: sql) }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            throw PostgresError(connection: handle, result: result, sql: sql)
        }
    }

    /// Runs `body` in one transaction at `isolation`, ending it with `end` when it returns
    /// (`COMMIT` by default) and rolling back when it or the end throws.
    func transaction<T>(isolation: String = "READ COMMITTED", end: String = "COMMIT", _ body: () throws -> T)
        throws -> T
    {
        try execute("BEGIN ISOLATION LEVEL \(isolation)")
        do {
            let value = try body()
            try execute(end)
            return value
        } catch {
            if PQstatus(handle) == CONNECTION_OK { _ = try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` in a transaction that ends prepared as `name` (`PREPARE TRANSACTION`): its
    /// writes are kept by the server, invisible, until `COMMIT PREPARED` or `ROLLBACK PREPARED`
    /// names it, from any connection. Rolled back when `body` or the prepare throws.
    func preparedTransaction<T>(named name: String, _ body: () throws -> T) throws -> T {
        try transaction(end: "PREPARE TRANSACTION \(try quotedLiteral(name))", body)
    }

    /// `text` as an SQL string literal, quoted by libpq for this connection's encoding and
    /// settings: for the few statements that take no parameters, such as the name of a
    /// prepared transaction.
    func quotedLiteral(_ text: String) throws -> String {
        guard let quoted = PQescapeLiteral(handle, text, text.utf8.count) else {
            throw StoreError(
                code: .invalidChange,
                message: "The PostgreSQL connection to \(serverName) could not quote '\(text)': "
                    + Self.trimmed(PQerrorMessage(handle)))
        }
        defer { PQfreemem(quoted) }
        return String(cString: quoted)
    }

    /// How many notifications arrived for the channels this connection listens to, consuming
    /// input without waiting.
    func arrivedNotifications() throws -> Int {
        guard PQconsumeInput(handle) == 1 else {
            throw StoreError(
                code: .io,
                message: "Lost the PostgreSQL connection to \(serverName): \(Self.trimmed(PQerrorMessage(handle)))")
        }
        var count = 0
        while let notification = PQnotifies(handle) {
            count += 1
            PQfreemem(notification)
        }
        return count
    }

    static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "unknown error"
    }
}

/// An error the server or libpq reported, with its SQLSTATE code when there is one.
struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// The five-character SQLSTATE (`23505` for a unique violation); empty when the connection failed.
    let sqlState: String
    let message: String

    init(connection: OpaquePointer, result: OpaquePointer?, sql: String) {
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }
        sqlState = state.map { String(cString: $0) } ?? ""
        let primary = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "M"))) }
        message = primary.map { String(cString: $0) } ?? PostgresConnection.trimmed(PQerrorMessage(connection))
    }

    /// Whether the connection was lost (server shut down or unreachable), rather than the statement refused.
    var isConnectionFailure: Bool { sqlState.isEmpty || sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") }

    var description: String { sqlState.isEmpty ? message : "\(message) (SQLSTATE \(sqlState))" }
}
