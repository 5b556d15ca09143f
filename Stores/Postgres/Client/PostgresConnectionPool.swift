import Dispatch
import Foundation
import Strata

/// The connections of one store: at most ``size`` at once, made when first needed and kept
/// while they work. A connection the server dropped (it restarted, or an administrator ended
/// it) is let go when its statement fails, and the next request connects anew, so that a store
/// outlives a server restart.
final class PostgresConnectionPool: Sendable {
    let location: PostgresLocation
    let size: Int
    private let slots: DispatchSemaphore
    /// The idle connections, each used by one thread at a time once taken out.
    private let idle = Locked<[PooledConnection]>([])
    /// Told how long a request waited for a connection, when it had to.
    private let waited: (@Sendable (_ seconds: Double) -> Void)?
    /// What the pool's connections log of their statements, and where the pool logs lost
    /// connections and reconnections.
    let trace: PostgresStatementTrace?
    /// Whether a connection was lost since the last one was made.
    private let lostConnection = Locked(false)

    init(
        location: PostgresLocation, size: Int, trace: PostgresStatementTrace? = nil,
        waited: (@Sendable (_ seconds: Double) -> Void)? = nil
    ) {
        self.location = location
        self.size = size
        self.trace = trace
        self.waited = waited
        slots = DispatchSemaphore(value: size)
    }

    /// Runs `body` with a connection of the pool, connecting when none is idle, waiting while
    /// ``size`` are in use. When the first statement on an idle connection finds it closed (the
    /// server restarted since), nothing of `body` reached the server: it runs again once, on a
    /// new connection.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        if slots.wait(timeout: .now()) == .timedOut {
            let start = DispatchTime.now()
            slots.wait()
            waited?(Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
        }
        defer { slots.signal() }
        if let connection = idle.withLock({ $0.popLast() })?.connection {
            let before = connection.completedStatements
            do {
                return try run(body, on: connection)
            } catch let error as StoreError
                where error.code == .io && connection.completedStatements == before && !connection.isHealthy
            {
                // A connection closed while it was idle: try again below.
            }
        }
        return try run(body, on: try connect())
    }

    private func run<T>(_ body: (PostgresConnection) throws -> T, on connection: PostgresConnection) throws -> T {
        do {
            let value = try body(connection)
            giveBack(connection)
            return value
        } catch {
            giveBack(connection)
            throw Self.storeError(error, location: location)
        }
    }

    /// A new connection to the store's server.
    func connect() throws -> PostgresConnection {
        let connection = try PostgresConnection(conninfo: location.conninfo, serverName: location.displayName)
        if let trace, trace.isTracing { connection.trace = trace }
        let reconnected = lostConnection.withLock { lost in
            defer { lost = false }
            return lost
        }
        if reconnected {
            trace?.logger.notice(
                "Reconnected to the PostgreSQL server", metadata: ["store.url": "\(location.displayName)"])
        }
        return connection
    }

    /// Closes every idle connection; connections in use close when they come back.
    func drain() { idle.withLock { $0.removeAll() } }

    private func giveBack(_ connection: PostgresConnection) {
        guard connection.isHealthy else {
            if connection.isClosed {
                lostConnection.withLock { $0 = true }
                trace?.logger.warning(
                    "Lost a connection to the PostgreSQL server", metadata: ["store.url": "\(location.displayName)"])
            }
            return
        }
        let pooled = PooledConnection(connection: connection)
        idle.withLock { $0.append(pooled) }
    }

    /// `error` as a ``StoreError``: a lost connection is `io`, a unique violation that got past
    /// the store's own check (another process committed first) `constraintConflict`, a
    /// serialization failure or deadlock `conflict`.
    static func storeError(_ error: any Error, location: PostgresLocation) -> any Error {
        guard let error = error as? PostgresError else { return error }
        let store = "The PostgreSQL store at \(location.displayName)"
        if error.isConnectionFailure {
            return StoreError(
                code: .io,
                message: "\(store) lost its connection to the server; nothing of the request was written: \(error)",
                underlying: error)
        }
        switch error.sqlState {
        case "23505":
            return StoreError(
                code: .constraintConflict,
                message:
                    "\(store) refused a save that another save, committed first, made conflict with a uniqueness constraint: \(error)",
                underlying: error)
        case "40001", "40P01":
            return StoreError(
                code: .conflict, message: "\(store) refused a save that raced another: \(error)", underlying: error)
        default:
            return StoreError(code: .io, message: "\(store) failed: \(error)", underlying: error)
        }
    }
}

/// A connection resting in the pool.
// Sendable because a connection is in the pool's idle list only while no thread uses it: it
// moves between threads only through the pool's lock.
private struct PooledConnection: @unchecked Sendable {
    let connection: PostgresConnection
}
