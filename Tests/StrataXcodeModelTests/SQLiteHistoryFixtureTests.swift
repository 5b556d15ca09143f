import Foundation
import Strata
import Testing

@testable import StrataSQLite

/// Strata reads the persistent history Core Data wrote into CoreDataPlus's `SampleModel2_V1.sqlite`
/// (one transaction inserting every object), and records its own saves in the same tables, so
/// that an Apple app and Strata can share a store.
@Suite struct SQLiteHistoryFixtureTests {
    static func open(in directory: TemporaryDirectory) throws -> (URL, PersistentStoreCoordinator) {
        let storeCase = try SQLiteStoreFixtureWriteTests.storeCase("SampleModel2_V1.sqlite")
        let url = try directory.copyStore(storeCase.store)
        let coordinator = try PersistentStoreCoordinator.fixture(try storeCase.loadModel())
        try coordinator.addStore(
            type: StoreType.sqlite.name, at: url, options: StoreOptions(tracksPersistentHistory: true))
        return (url, coordinator)
    }

    @Test func readsTheTransactionCoreDataRecorded() throws {
        let directory = try TemporaryDirectory()
        let (_, coordinator) = try Self.open(in: directory)
        guard case .transactions(let transactions) = try coordinator.execute(.fetchHistory(after: .token(nil))) else {
            Issue.record("A history fetch gave no transactions.")
            return
        }
        let transaction = try #require(transactions.first)
        #expect(transactions.count == 1)
        #expect(transaction.token.transactionNumber == 1)
        #expect(transaction.processIdentifier == "xctest")
        #expect(transaction.bundleIdentifier == "com.apple.dt.xctest.tool")
        #expect(transaction.author == nil && transaction.contextName == nil)
        #expect(abs(transaction.timestamp.timeIntervalSinceReferenceDate - 737_057_647.288022) < 0.000_001)
        let changes = try #require(transaction.changes)
        #expect(changes.count == 5_468)
        #expect(changes.allSatisfy { $0.changeType == .insert })
        let counts = Dictionary(grouping: changes, by: \.changedObjectID.entityName).mapValues(\.count)
        #expect(counts == ["Book": 51, "GraphicNovel": 1, "Feedback": 444, "Page": 4_970, "Author": 2])
        #expect(try coordinator.currentPersistentHistoryTokens().map(\.transactionNumber) == [1])
    }

    @Test func recordsItsOwnSavesInCoreDatasLayout() throws {
        let directory = try TemporaryDirectory()
        let (url, coordinator) = try Self.open(in: directory)
        let context = ManagedObjectContext(coordinator: coordinator, name: "writer")
        let pageID = try context.performAndWait { () throws in
            context.transactionAuthor = "strata"
            return try SQLiteStoreFixtureWriteTests.savePage(in: context)
        }
        guard case .transactions(let transactions) = try coordinator.execute(.fetchHistory(after: .token(nil))),
            let mine = transactions.last
        else {
            Issue.record("A history fetch gave no transactions.")
            return
        }
        #expect(transactions.map(\.token.transactionNumber) == [1, 2])
        #expect(mine.author == "strata" && mine.contextName == "writer")
        #expect(mine.processIdentifier == StoreChangeSet.HistoryInfo.currentProcessName)
        let inserted = mine.changes?.filter { $0.changeType == .insert }.map(\.changedObjectID)
        #expect(inserted == [pageID])
        let updated = try #require(mine.changes?.first { $0.changeType == .update })
        #expect(updated.changedObjectID.entityName == "Book")
        #expect(updated.updatedProperties == ["pages", "pagesCount"])
        let integers = SQLiteStoreFixtureWriteTests.integers
        #expect(try integers("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT IN (16001, 16002)", url) == [5_470, 2])
        #expect(
            try integers("SELECT Z_ENT, ZCHANGETYPE, ZENTITY, ZTRANSACTIONID FROM ACHANGE WHERE Z_PK = 5469", url) == [
                16001, 0, 4, 2,
            ])
        #expect(try integers("SELECT count(*) FROM ATRANSACTIONSTRING WHERE ZNAME IN ('strata', 'writer')", url) == [2])
        #expect(
            try integers("SELECT count(*) FROM ATRANSACTION t JOIN ATRANSACTIONSTRING s ON s.Z_PK = t.ZAUTHORTS", url)
                == [1])
    }
}
