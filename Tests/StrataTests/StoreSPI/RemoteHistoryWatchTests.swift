import Foundation
import Testing

@testable import Strata

/// The bookkeeping of remote history: nothing read while the counter stands, the store's own
/// transactions left out, and a number whose write failed no longer taken for its own.
@Suite struct RemoteHistoryWatchTests {
    /// A history of transactions numbered `numbers`, read as `remoteHistory` reads it.
    static func history(_ numbers: [Int64]) -> (Int64, Bool) throws -> [PersistentHistoryTransaction] {
        { after, includingChanges in
            numbers.filter { $0 > after }.map { number in
                PersistentHistoryTransaction(
                    token: PersistentHistoryToken(storeIdentifier: "S", transactionNumber: number),
                    info: StoreChangeSet.HistoryInfo(), changes: includingChanges ? [] : nil)
            }
        }
    }

    @Test func ownTransactionsAreLeftOutAndAStandingCounterReadsNothing() throws {
        let watch = RemoteHistoryWatch()
        watch.noteRecorded(2)
        let found = try #require(try watch.remoteHistory(after: 0, counter: 1, transactions: Self.history([1, 2, 3])))
        #expect(found.lastTransactionNumber == 3)
        #expect(found.transactions.map(\.token.transactionNumber) == [1, 3])
        #expect(try watch.remoteHistory(after: 3, counter: 1, transactions: Self.history([1, 2, 3])) == nil)
    }

    @Test func aForgottenNumberIsAnotherWritersAgain() throws {
        let watch = RemoteHistoryWatch()
        watch.noteRecorded(1)
        watch.forgetRecorded(1)
        let found = try #require(try watch.remoteHistory(after: 0, counter: 1, transactions: Self.history([1])))
        #expect(found.transactions.map(\.token.transactionNumber) == [1])
    }

    @Test func aWriteThatFailsForgetsTheNumbersItNotedAndOneThatCommitsKeepsThem() throws {
        struct Failed: Error {}
        let watch = RemoteHistoryWatch()
        #expect(throws: Failed.self) {
            try watch.recording { note in
                note(1)
                throw Failed()
            }
        }
        try watch.recording { note in note(2) }
        let found = try #require(try watch.remoteHistory(after: 0, counter: 1, transactions: Self.history([1, 2])))
        #expect(found.transactions.map(\.token.transactionNumber) == [1])
    }
}
