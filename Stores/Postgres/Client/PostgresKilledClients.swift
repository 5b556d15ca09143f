import Foundation
import Strata

/// Waits out the work a killed client left running on the server.
///
/// Killing a client does not stop its server process: a `COMMIT` it sent just before it died
/// still runs, and becomes visible a moment later. Durability tests that kill a process
/// writing to a store wait here before they read the store, so that what they read is final.
package enum PostgresKilledClients {
    /// Returns once no server process of the clients named by the `application_name` of the
    /// store URL `url` is working (running a statement or holding a transaction open): what
    /// they committed is visible then, and what they did not commit is gone.
    ///
    /// - Throws: ``StoreError`` of code `io` when the server cannot be reached, and of code
    ///   `inUse` when its processes are still working after `timeout` seconds.
    package static func awaitWork(of url: URL, timeout: TimeInterval = 30) throws {
        let location = try PostgresLocation(url: url)
        guard
            let applicationName = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
                .last(where: { $0.name == "application_name" })?.value
        else {
            throw StoreError(
                code: .invalidOption,
                message: "'\(location.displayName)' names no application_name to tell its clients' processes by.")
        }
        let connection = try PostgresConnection(conninfo: location.conninfo, serverName: location.displayName)
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let working = try connection.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND state <> 'idle' "
                    + "AND pid <> pg_backend_pid()",
                [.text(applicationName)]
            ).int64(0, 0)
            if working == 0 { return }
            guard Date() < deadline else {
                throw StoreError(
                    code: .inUse,
                    message: "\(working ?? 0) server processes of clients named '\(applicationName)' at "
                        + "\(location.displayName) were still working after \(Int(timeout)) seconds.")
            }
            usleep(10_000)
        }
    }
}
