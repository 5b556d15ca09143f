import Strata

/// A connection of its own that listens to a store's notification channel and counts what
/// arrives: the commit counter ``RemoteHistoryWatch`` compares, so that a watched store reads
/// no table while nothing is written.
///
/// A server sends a notification to listeners as its transaction commits, but on its own time:
/// it can reach the listener after the saving process has its answer. So ``counter()`` first
/// runs an empty statement on the listening connection; the server delivers every notification
/// of a transaction committed before that statement ahead of its answer, and a save that
/// returned before ``counter()`` was called is always counted.
///
/// Notifications sent while no connection listens are lost, so every new connection (the
/// first, and one replacing a connection the server dropped) counts as a change too: the
/// watch then reads the history itself.
final class PostgresChangeListener: Sendable {
    private struct State {
        var connection: PostgresConnection?
        var count: Int64 = 0
    }

    private let pool: PostgresConnectionPool
    private let channel: String
    private let state = Locked(State())

    init(pool: PostgresConnectionPool, channel: String) {
        self.pool = pool
        self.channel = channel
    }

    /// How many notifications (and new connections) the listener has seen.
    func counter() throws -> Int64 {
        try state.withLock { state in
            if let connection = state.connection {
                do {
                    try connection.execute("SELECT")
                    state.count += Int64(try connection.arrivedNotifications())
                    return state.count
                } catch {
                    state.connection = nil
                }
            }
            do {
                let connection = try pool.connect()
                try connection.execute("LISTEN \(PostgresIdentifier.quoted(channel))")
                state.connection = connection
            } catch {
                throw PostgresConnectionPool.storeError(error, location: pool.location)
            }
            state.count += 1
            return state.count
        }
    }

    /// Stops listening and closes the connection; the next ``counter()`` connects again.
    func close() { state.withLock { $0.connection = nil } }
}
