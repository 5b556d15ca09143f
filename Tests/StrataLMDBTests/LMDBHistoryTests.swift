import CStrataLMDB
import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataLMDB

/// The LMDB store's persistent history in its own databases: created only when asked for,
/// read back after reopening read-only, kept as it is by an opening that does not track, and
/// refused with a typed error naming the transaction when a record is damaged.
@Suite struct LMDBHistoryTests {
    static func open(_ url: URL, tracking: Bool = true, readOnly: Bool = false) throws -> LMDBStore {
        try LMDBStoreFile.open(
            StoreOpenRequest(
                model: LMDBTestModel.model, url: url,
                options: StoreOptions(isReadOnly: readOnly, tracksPersistentHistory: tracking)))
    }

    /// The names of the named databases in the closed store at `url`.
    static func databaseNames(at url: URL) throws -> Set<String> {
        let environment = try LMDBEnvironment(path: url.path, readOnly: true, relaxedDurability: false, mapSize: nil)
        return try environment.read { transaction in
            var names: Set<String> = []
            try transaction.scan(LMDBTransaction.mainDatabase, from: []) { key, _ in
                names.insert(String(decoding: key, as: UTF8.self))
                return true
            }
            return names
        }
    }

    @Test func historyDatabasesAreCreatedOnlyForAStoreThatTracksHistory() throws {
        let directory = try TemporaryDirectory()
        let plain = directory.file("plain.lmdb")
        do {
            let store = try Self.open(plain, tracking: false)
            try LMDBTestModel.insertPlayers(2, into: store)
        }
        #expect(try Self.databaseNames(at: plain).filter { $0.hasPrefix("strata.history") }.isEmpty)
        let tracked = directory.file("tracked.lmdb")
        do {
            let store = try Self.open(tracked)
            try LMDBTestModel.insertPlayers(2, into: store)
        }
        #expect(
            try Self.databaseNames(at: tracked).isSuperset(of: [
                LMDBHistoryLayout.transactionDatabase, LMDBHistoryLayout.changeDatabase,
            ]))
    }

    @Test func historyReadsBackReadOnlyAndSurvivesAnOpeningThatDoesNotTrack() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("history.lmdb")
        let ids = try LMDBTestModel.insertPlayers(3, batch: 2, into: try Self.open(url))
        try LMDBTestModel.insertPlayers(1, into: try Self.open(url, tracking: false))
        let readOnly = try Self.open(url, readOnly: true)
        let transactions = try readOnly.historyTransactions(after: .transactionNumber(0), includingChanges: true)
        #expect(transactions.map(\.token.transactionNumber) == [1, 2])
        #expect(transactions.flatMap { $0.changes ?? [] }.map(\.changedObjectID) == ids)
        #expect(transactions.flatMap { $0.changes ?? [] }.map(\.changeIdentifier) == [1, 2, 3])
        #expect(try readOnly.lastHistoryToken()?.transactionNumber == 2)
        #expect(try readOnly.historyTransactions(after: .transactionNumber(1), includingChanges: false).count == 1)
    }

    @Test func aDamagedTransactionRecordIsACorruptErrorNamingTheTransaction() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("damaged.lmdb")
        try LMDBTestModel.insertPlayers(2, batch: 1, into: try Self.open(url))
        do {
            let environment = try LMDBEnvironment(
                path: url.path, readOnly: false, relaxedDurability: false, mapSize: nil)
            try environment.write(keepingDatabases: true) { transaction in
                let database = try #require(
                    try transaction.openDatabase(LMDBHistoryLayout.transactionDatabase, create: false))
                var bytes = try #require(try transaction.get(database, LMDBLayout.key(2)))
                bytes[3] ^= 0xFF
                try transaction.put(database, LMDBLayout.key(2), bytes)
            }
        }
        let store = try Self.open(url)
        #expect(try store.historyTransactions(after: .transactionNumber(2), includingChanges: false).isEmpty)
        let error = #expect(throws: StoreError.self) {
            try store.historyTransactions(after: .transactionNumber(0), includingChanges: false)
        }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("history transaction 2") == true)
        #expect(error?.message.contains(url.path) == true)
    }
}
