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

    /// Whether the connection to the server is gone (the server restarted, or ended it).
    var isClosed: Bool { PQstatus(handle) != CONNECTION_OK }

    /// How many statements have succeeded on the connection.
    private(set) var completedStatements = 0

    /// The statements prepared on this connection.
    private var statements = PostgresStatementCache()

    /// What the connection logs of its statements; `nil` when it logs nothing, and then no
    /// statement is timed.
    var trace: PostgresStatementTrace?

    /// Runs `sql` with `parameters` bound to `$1`, `$2`, … and returns its rows, read in the
    /// binary format. A statement run a second time with the same parameter types is prepared
    /// on the server and run prepared from then on (``PostgresStatementCache``).
    ///
    /// - Throws: ``PostgresError`` carrying the server's SQLSTATE and message.
    @discardableResult
    func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws -> PostgresResult {
        guard let trace else { return try run(sql, parameters) }
        let start = ContinuousClock.now
        defer { trace.ran(sql, parameters, elapsed: ContinuousClock.now - start) }
        return try run(sql, parameters)
    }

    private func run(_ sql: String, _ parameters: [PostgresValue]) throws -> PostgresResult {
        let result = try Self.withWire(parameters) { wire -> OpaquePointer? in
            switch try plan(sql, types: wire.types) {
            case nil:
                PQexecParams(handle, sql, wire.count, wire.types, wire.values, wire.lengths, wire.formats, 1)
            case let name?:
                PQexecPrepared(handle, name, wire.count, wire.values, wire.lengths, wire.formats, 1)
            }
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

    /// How many statements ``executeInPipeline(_:)`` sends before it waits for their results:
    /// few enough that their replies never fill the socket while it is still sending.
    static let pipelineDepth = 200

    /// Runs `statements` in order as ``execute(_:_:)`` would, but in libpq's pipeline mode:
    /// ``pipelineDepth`` at a time are sent together and their results read together, so a
    /// save of many rows waits for the server a few times, not once a row. Returns their
    /// results in order.
    ///
    /// - Throws: ``PostgresError`` for the first statement that failed; the server skipped the
    ///   ones after it, and the transaction they run in is aborted.
    @discardableResult
    func executeInPipeline(_ statements: [(sql: String, parameters: [PostgresValue])]) throws -> [PostgresResult] {
        var results: [PostgresResult] = []
        results.reserveCapacity(statements.count)
        for start in stride(from: 0, to: statements.count, by: Self.pipelineDepth) {
            let chunk = statements[start..<min(start + Self.pipelineDepth, statements.count)]
            let sent = ContinuousClock.now
            defer { trace?.ranPipeline(chunk, elapsed: ContinuousClock.now - sent) }
            // Statements are prepared (when their plan says so) before the pipeline starts.
            let names = try chunk.map { statement in
                try plan(statement.sql, types: statement.parameters.map(\.wire.type))
            }
            guard PQenterPipelineMode(handle) == 1 else {
                throw PostgresError(connection: handle, result: nil, sql: "")
            }
            defer { PQexitPipelineMode(handle) }
            for (statement, name) in zip(chunk, names) {
                let sent = Self.withWire(statement.parameters) { wire -> Int32 in
                    guard let name else {
                        return PQsendQueryParams(
                            handle, statement.sql, wire.count, wire.types, wire.values, wire.lengths, wire.formats, 1)
                    }
                    return PQsendQueryPrepared(handle, name, wire.count, wire.values, wire.lengths, wire.formats, 1)
                }
                guard sent == 1 else { throw PostgresError(connection: handle, result: nil, sql: statement.sql) }
            }
            guard PQpipelineSync(handle) == 1 else { throw PostgresError(connection: handle, result: nil, sql: "") }
            var failure: PostgresError?
            for statement in chunk {
                guard let result = PQgetResult(handle) else {
                    throw PostgresError(connection: handle, result: nil, sql: statement.sql)
                }
                switch PQresultStatus(result) {
                case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
                    completedStatements += 1
                    results.append(PostgresResult(result))
                case PGRES_PIPELINE_ABORTED:
                    PQclear(result)
                default:
                    if failure == nil {
                        failure = PostgresError(connection: handle, result: result, sql: statement.sql)
                    }
                    PQclear(result)
                }
                // Each statement's results end with no result.
                while let extra = PQgetResult(handle) { PQclear(extra) }
            }
            // The sync point's own result.
            if let sync = PQgetResult(handle) { PQclear(sync) }
            if let failure { throw failure }
        }
        return results
    }

    /// The name of the prepared statement to run `sql` with parameters of `types` as, preparing
    /// it first when the statement cache says so; `nil` to run it unprepared.
    private func plan(_ sql: String, types: [UInt32]) throws -> String? {
        let key = PostgresStatementCache.Key(sql: sql, types: types)
        switch statements.plan(for: key) {
        case .runUnprepared:
            return nil
        case .run(let name):
            return name
        case .prepare(let name, let evicting):
            if let evicting { try check(PQexec(handle, "DEALLOCATE \(evicting)"), sql: "DEALLOCATE \(evicting)") }
            try check(PQprepare(handle, name, sql, Int32(types.count), types), sql: sql)
            statements.didPrepare(key, name: name)
            return name
        }
    }

    /// The parameters as libpq takes them: types, NUL-terminated buffers, lengths and formats.
    private struct Wire {
        let count: Int32
        let types: [UInt32]
        let values: [UnsafePointer<CChar>?]
        let lengths: [Int32]
        let formats: [Int32]
    }

    /// Calls `body` with `parameters` laid out for libpq, freeing the buffers afterwards.
    private static func withWire<T>(_ parameters: [PostgresValue], _ body: (Wire) throws -> T) rethrows -> T {
        let wires = parameters.map(\.wire)
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
        return try body(
            Wire(
                count: Int32(parameters.count), types: wires.map(\.type), values: buffers.map { UnsafePointer($0) },
                lengths: wires.map { Int32($0.bytes?.count ?? 0) }, formats: wires.map(\.format)))
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

    /// Runs `body`, and inside a transaction under a savepoint: when `body` throws, the
    /// transaction goes back to where it was before `body` and goes on (an error outside a
    /// savepoint would abort it). Outside a transaction `body` simply runs.
    func withSavepoint<T>(_ body: () throws -> T) throws -> T {
        guard PQtransactionStatus(handle) == PQTRANS_INTRANS else { return try body() }
        try execute("SAVEPOINT strata_statement")
        do {
            let value = try body()
            try execute("RELEASE SAVEPOINT strata_statement")
            return value
        } catch {
            if PQstatus(handle) == CONNECTION_OK { try execute("ROLLBACK TO SAVEPOINT strata_statement") }
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
