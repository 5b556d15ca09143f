import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataLMDB

/// The LMDB store runs batch updates and deletions itself, in one write transaction, keeping
/// its index entries and member lists in step.
@Suite struct LMDBBatchTests {
    @Test func anUpdateRewritesTheMatchingRecordsAndTheirIndexEntries() throws {
        let directory = try TemporaryDirectory()
        let store = try LMDBTestModel.open(directory.file("update.lmdb"))
        try LMDBTestModel.insertPlayers(50, into: store)
        #expect(store.capabilities.contains(.batchOperations))
        let result = try #require(
            try store.executeBatchUpdate(
                StoreBatchUpdate(
                    entityName: "Player", predicate: try FetchPredicate(format: "rating < 10"),
                    values: ["score": .integer64(-1)])))
        #expect(result.count == 10)
        let moved = try LMDBTestModel.ids(store, "score == -1")
        #expect(Set(moved) == Set(try #require(result.objectIDs)))
        #expect(try LMDBTestModel.ids(store, "score == 3").isEmpty)
        for id in moved { #expect(try store.snapshot(for: id)?.version == 2) }
    }

    @Test func computedValuesComeFromEachRecordAsItWasAndKeepTheIndexInStep() throws {
        let directory = try TemporaryDirectory()
        let store = try LMDBTestModel.open(directory.file("computed.lmdb"))
        try LMDBTestModel.insertPlayers(50, into: store)
        let result = try #require(
            try store.executeBatchUpdate(
                StoreBatchUpdate(
                    entityName: "Player", predicate: try FetchPredicate(format: "rating * 2 < 10"), values: [:],
                    expressions: [
                        "score": try FetchExpression(format: "score + rating + 1000"),
                        "rating": try FetchExpression(format: "score"),
                    ])))
        #expect(result.count == 5)
        #expect(Set(try LMDBTestModel.ids(store, "score >= 1000")) == Set(try #require(result.objectIDs)))
        #expect(Set(try LMDBTestModel.ids(store, "score == 1008")).count == 1)
        #expect(try LMDBTestModel.ids(store, "score < 5").isEmpty)

        let unfit = StoreBatchUpdate(
            entityName: "Player", values: ["rating": .integer64(-7)],
            expressions: ["name": try FetchExpression(format: "score")])
        #expect(try store.executeBatchUpdate(unfit) == nil)
        #expect(try LMDBTestModel.ids(store, "rating == -7").isEmpty)
        #expect(try LMDBTestModel.ids(store, "name BEGINSWITH 'player'").count == 50)
    }

    @Test func aDeletionRemovesRecordsIndexEntriesAndMemberships() throws {
        let directory = try TemporaryDirectory()
        let store = try LMDBTestModel.open(directory.file("delete.lmdb"))
        let players = try LMDBTestModel.insertPlayers(20, into: store)
        let members = Array(players.prefix(4))
        let team = try LMDBTestModel.saveTeam(of: members, into: store)
        let result = try #require(
            try store.executeBatchDelete(
                StoreBatchDelete(
                    .matching(
                        entityName: "Player", includesSubentities: true,
                        predicate: try FetchPredicate(format: "score < 2")))))
        #expect(Set(result.deleted) == Set(players.prefix(2)))
        #expect(result.updated == [team])
        #expect(try store.relatedObjectIDs(of: team, relationship: "players") == Array(players[2..<4]))
        #expect(try store.snapshot(for: team)?.version == 2)
        #expect(
            try store.execute(
                StoreFetchRequest(
                    entityName: "Player", predicate: try FetchPredicate(format: "score <= 1"), resultType: .count))
                == .count(0))
        let request = StoreFetchRequest(
            entityName: "Player",
            predicate: .comparison(ComparisonPredicate(.keyPath("team"), .equalTo, .constant(.objectID(team)))),
            resultType: .count)
        #expect(try store.execute(request) == .count(2))
    }

    @Test func aStoreRecordingHistoryRecordsItsBatchRequestsAsTransactions() throws {
        let directory = try TemporaryDirectory()
        let store = try LMDBStoreFile.open(
            StoreOpenRequest(
                model: LMDBTestModel.model, url: directory.file("history.lmdb"),
                options: StoreOptions(tracksPersistentHistory: true)))
        let players = try LMDBTestModel.insertPlayers(10, into: store)
        let team = try LMDBTestModel.saveTeam(of: Array(players.prefix(3)), into: store)
        let before = try store.historyTransactions(after: .transactionNumber(0), includingChanges: true).count
        #expect(try store.executeBatchUpdate(StoreBatchUpdate(entityName: "Player", values: ["rating": 1])) == nil)

        let update = try #require(
            try store.executeBatchUpdate(
                StoreBatchUpdate(
                    entityName: "Player", predicate: try FetchPredicate(format: "score >= 8"), values: ["rating": 1],
                    expressions: ["score": try FetchExpression(format: "score * 2")],
                    history: StoreChangeSet.HistoryInfo(author: "updater"))))
        #expect(update.count == 2)
        let deletion = try #require(
            try store.executeBatchDelete(
                StoreBatchDelete(.objects([players[0]]), history: StoreChangeSet.HistoryInfo(author: "deleter"))))
        #expect(deletion.updated == [team])

        let transactions = try store.historyTransactions(after: .transactionNumber(0), includingChanges: true)
        #expect(transactions.count == before + 2)
        let recorded = transactions.suffix(2)
        #expect(recorded.map(\.author) == ["updater", "deleter"])
        #expect(recorded.first?.changes?.map(\.updatedProperties) == [["rating", "score"], ["rating", "score"]])
        let deletionChanges = recorded.last?.changes ?? []
        #expect(
            deletionChanges.map { "\($0.changeType) \($0.changedObjectID.uriString)" }
                == ["update \(team.uriString)", "delete \(players[0].uriString)"])
        #expect(deletionChanges.first?.updatedProperties == ["players"])
    }
}
