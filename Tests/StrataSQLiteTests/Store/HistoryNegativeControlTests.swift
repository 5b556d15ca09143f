import Foundation
import Strata
import StrataConformance
import StrataConformanceTesting
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// Negative controls of the persistent-history checks (`T.*`): SQLite stores whose history
/// has one defect each fail the checks listed for it, and no other history check.
@Suite struct HistoryNegativeControlTests {
    /// How a store's history goes wrong.
    enum Defect: String, Sendable {
        /// Each object of a save is saved, and recorded, on its own.
        case recordsEachObjectAsItsOwnTransaction
        /// Deletions come back without their tombstones.
        case dropsTombstones
        /// Transactions are numbered by their place in what is left of the history.
        case numbersTransactionsByPlace
        /// Other writers' saves are never found.
        case ignoresOtherWriters
        /// The store's own saves are reported as other writers'.
        case reportsOwnSaves
    }

    final class DefectiveStore: ForwardingStore, @unchecked Sendable {
        // Safe: it adds only a constant to its base class.
        let defect: Defect

        init(_ base: any IncrementalStore, defect: Defect) {
            self.defect = defect
            super.init(base)
        }

        override func save(_ changes: StoreChangeSet) throws {
            guard defect == .recordsEachObjectAsItsOwnTransaction else { return try base.save(changes) }
            for change in changes.inserted {
                try base.save(StoreChangeSet(inserted: [change], history: changes.history))
            }
            for change in changes.updated { try base.save(StoreChangeSet(updated: [change], history: changes.history)) }
            for deletion in changes.deleted {
                try base.save(StoreChangeSet(deleted: [deletion], history: changes.history))
            }
            if let userInfo = changes.userInfo { try base.save(StoreChangeSet(userInfo: userInfo)) }
        }

        override func historyTransactions(after bound: StoreHistoryBound, includingChanges: Bool) throws
            -> [PersistentHistoryTransaction]
        {
            switch defect {
            case .recordsEachObjectAsItsOwnTransaction, .ignoresOtherWriters, .reportsOwnSaves:
                return try base.historyTransactions(after: bound, includingChanges: includingChanges)
            case .dropsTombstones:
                return try base.historyTransactions(after: bound, includingChanges: includingChanges).map {
                    var transaction = $0
                    transaction.changes = transaction.changes?.map { change in
                        var change = change
                        change.tombstone = nil
                        return change
                    }
                    return transaction
                }
            case .numbersTransactionsByPlace:
                let all = try base.historyTransactions(after: .transactionNumber(0), includingChanges: includingChanges)
                let renumbered = all.enumerated().map { place, transaction in
                    var transaction = transaction
                    transaction.token.transactionNumber = Int64(place + 1)
                    return transaction
                }
                guard case .transactionNumber(let number) = bound else { return renumbered }
                return renumbered.filter { $0.token.transactionNumber > number }
            }
        }

        override func lastHistoryToken() throws -> PersistentHistoryToken? {
            guard defect == .numbersTransactionsByPlace else { return try base.lastHistoryToken() }
            let count = try base.historyTransactions(after: .transactionNumber(0), includingChanges: false).count
            return count == 0
                ? nil : PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: Int64(count))
        }

        override func remoteHistory(after number: Int64) throws -> RemoteHistory? {
            switch defect {
            case .ignoresOtherWriters: return nil
            case .reportsOwnSaves:
                guard let found = try base.remoteHistory(after: number) else { return nil }
                let all = try base.historyTransactions(after: .transactionNumber(number), includingChanges: true)
                return RemoteHistory(lastTransactionNumber: found.lastTransactionNumber, transactions: all)
            default: return try base.remoteHistory(after: number)
            }
        }
    }

    static func failures(of defect: Defect) -> [String] {
        let type = StoreType(
            name: "SQLite-\(defect.rawValue)",
            open: { DefectiveStore(try SQLiteStoreFile.open($0), defect: defect) },
            readMetadata: { try SQLiteStoreFile.readMetadata(at: $0.path) },
            writeMetadata: { try SQLiteStoreFile.writeMetadata($0, at: $1.path) },
            destroy: { try SQLiteStoreFile.destroy(at: $0.path) })
        let suite = ConformanceSuite(storeType: type, storage: .file(pathExtension: "sqlite"), seed: 1)
        return suite.checks.filter { $0.category == .history }.filter { check in
            if case .failed = suite.run(check).outcome { return true }
            return false
        }.map(\.id).sorted()
    }

    @Test func savesSplitIntoATransactionPerObjectFailTheChecksCountingTransactions() {
        #expect(
            Self.failures(of: .recordsEachObjectAsItsOwnTransaction) == [
                "T.batchDeletionRecordsRulesAndTombstones", "T.batchRequestsRecorded", "T.everySaveRecordedOnce",
                "T.remoteHistoryFindsOtherWritersSaves",
            ])
    }

    @Test func tombstonesDroppedFailTheTombstoneCheck() {
        #expect(
            Self.failures(of: .dropsTombstones) == [
                "T.batchDeletionRecordsRulesAndTombstones", "T.deletionsKeepTombstones",
            ])
    }

    @Test func transactionsNumberedByPlaceFailTheTokenChecks() {
        #expect(
            Self.failures(of: .numbersTransactionsByPlace) == [
                "T.deleteBeforeKeepsLaterTransactions", "T.replacedHistoryKeepsNumbers",
                "T.tokensGrowAcrossReopenAndDeletion",
            ])
    }

    @Test func otherWritersIgnoredFailTheRemoteChecks() {
        #expect(
            Self.failures(of: .ignoresOtherWriters) == [
                "T.remoteChangesMergeIntoContexts", "T.remoteHistoryFindsOtherWritersSaves",
            ])
    }

    @Test func ownSavesReportedAsOthersFailTheRemoteHistoryCheck() {
        #expect(Self.failures(of: .reportsOwnSaves) == ["T.remoteHistoryFindsOtherWritersSaves"])
    }
}
