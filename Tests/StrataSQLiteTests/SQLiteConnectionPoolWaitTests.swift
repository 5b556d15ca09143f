import Dispatch
import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// A read that finds every reader of the pool busy waits, and the pool says for how long.
@Suite struct SQLiteConnectionPoolWaitTests {
    @Test func aReadWaitingForABusyReaderIsReportedWithItsWait() throws {
        let folder = try TemporaryDirectory()
        let path = folder.file("pool.sqlite").path
        let writer = try SQLiteConnection(path: path, mode: .readWriteCreate)
        let waits = Locked<[Double]>([])
        let pool = SQLiteConnectionPool(
            writer: writer, maximumReaders: 2, openWriter: { try SQLiteConnection(path: path, mode: .readWrite) },
            openReader: { try SQLiteConnection(path: path, mode: .readOnly) },
            waited: { seconds in waits.withLock { $0.append(seconds) } })
        try pool.withReader { _ in }
        #expect(waits.withLock { $0 }.isEmpty, "A reader was free.")

        // Threads of their own: two blocks on a busy global queue may run one after the other.
        let held = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        for _ in 0..<2 {
            Thread {
                try? pool.withReader { _ in
                    held.signal()
                    usleep(300_000)
                }
                released.signal()
            }.start()
        }
        held.wait()
        held.wait()
        try pool.withReader { _ in }
        released.wait()
        released.wait()
        let recorded = waits.withLock { $0 }
        #expect(recorded.count == 1)
        #expect(recorded.allSatisfy { $0 > 0.1 && $0 < 10 }, "\(recorded)")
    }
}
