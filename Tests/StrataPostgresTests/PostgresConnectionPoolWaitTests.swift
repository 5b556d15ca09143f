import Dispatch
import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// A request that finds every connection of the pool in use waits, and the pool says for how
/// long.
@Suite struct PostgresConnectionPoolWaitTests {
    @Test func aRequestWaitingForABusyConnectionIsReportedWithItsWait() throws {
        let url = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("pool"))
        let waits = Locked<[Double]>([])
        let pool = PostgresConnectionPool(
            location: try PostgresLocation(url: url), size: 1,
            waited: { seconds in waits.withLock { $0.append(seconds) } })
        _ = try pool.withConnection { try $0.execute("SELECT 1") }
        #expect(waits.withLock { $0 }.isEmpty, "The connection was free.")

        let held = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        Thread {
            _ = try? pool.withConnection { connection in
                held.signal()
                return try connection.execute("SELECT pg_sleep(0.3)")
            }
            released.signal()
        }.start()
        held.wait()
        _ = try pool.withConnection { try $0.execute("SELECT 1") }
        released.wait()
        let recorded = waits.withLock { $0 }
        #expect(recorded.count == 1)
        #expect(recorded.allSatisfy { $0 > 0.1 && $0 < 10 }, "\(recorded)")
    }
}
