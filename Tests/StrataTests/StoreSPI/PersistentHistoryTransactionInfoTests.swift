import Foundation
import Testing

@testable import Strata

/// A transaction and the `HistoryInfo` a store records for it convert into each other without
/// losing a field.
@Suite struct PersistentHistoryTransactionInfoTests {
    @Test func aTransactionAndItsHistoryInfoRoundTrip() {
        let info = StoreChangeSet.HistoryInfo(
            timestamp: Date(timeIntervalSinceReferenceDate: 42), author: "importer", contextName: "background",
            processIdentifier: "worker", bundleIdentifier: "org.example.app")
        let token = PersistentHistoryToken(storeIdentifier: "S", transactionNumber: 7)
        let transaction = PersistentHistoryTransaction(token: token, info: info, changes: [])
        #expect(transaction.token == token)
        #expect(transaction.author == "importer" && transaction.contextName == "background")
        #expect(transaction.processIdentifier == "worker" && transaction.bundleIdentifier == "org.example.app")
        #expect(transaction.changes == [])
        #expect(transaction.historyInfo == info)
        #expect(PersistentHistoryTransaction(token: token, info: info).changes == nil)
    }
}
