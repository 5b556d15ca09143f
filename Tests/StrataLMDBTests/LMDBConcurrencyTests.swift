import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataLMDB

/// Threads of one process read while another saves and grows the map: growing waits for the
/// readers' transactions, and every read sees one committed state (whole saves of 250 players).
@Suite struct LMDBConcurrencyTests {
    @Test func readersKeepReadingWhileTheMapGrows() throws {
        let directory = try TemporaryDirectory()
        let store = try LMDBTestModel.open(directory.file("threads.lmdb"), settings: ["mapSize": "65536"])
        let total = 3_000
        let failures = Locked<[String]>([])
        let finished = DispatchGroup()
        for index in 0..<3 {
            finished.enter()
            Thread.detachNewThread {
                defer { finished.leave() }
                do {
                    if let failure = try Self.readUntil(total, from: store) {
                        failures.withLock { $0.append("reader \(index) \(failure)") }
                    }
                } catch {
                    failures.withLock { $0.append("reader \(index): \(error)") }
                }
            }
        }
        try LMDBTestModel.insertPlayers(total, batch: 250, into: store)
        finished.wait()
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(store.environment.mapSize > 65_536)
    }

    /// Counts players until there are `total`; what was wrong, if a count was not a whole number
    /// of saves or went down.
    private static func readUntil(_ total: Int, from store: LMDBStore) throws -> String? {
        var seen = 0
        while seen < total {
            guard
                case .count(let count) = try store.execute(StoreFetchRequest(entityName: "Player", resultType: .count))
            else { return "got no count" }
            let indexed = try LMDBTestModel.ids(store, "score >= 0").count
            guard count >= seen, count % 250 == 0, indexed >= count, indexed % 250 == 0 else {
                return "saw \(count) (\(indexed) through the index) after \(seen)"
            }
            seen = count
        }
        return nil
    }
}
