import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataLMDB

/// Fetches on indexed attributes and to-one relationships read only the matching records, and
/// answer as a fetch that reads every record does.
@Suite struct LMDBIndexTests {
    @Test func equalityOnAnIndexedAttributeDecodesOnlyMatchingRecords() throws {
        let directory = try TemporaryDirectory()
        let store = try LMDBTestModel.open(directory.file("index.lmdb"))
        try LMDBTestModel.insertPlayers(500, into: store)
        let decodedBefore = store.statistics.decodedRecords
        let indexedBefore = store.statistics.indexedFetches
        let matching = try LMDBTestModel.ids(store, "score == 7")
        #expect(matching.count == 5)
        #expect(store.statistics.decodedRecords - decodedBefore == 5)
        #expect(store.statistics.indexedFetches == indexedBefore + 1)
        #expect(try LMDBTestModel.ids(store, "rating == 7") == matching)
        #expect(store.statistics.decodedRecords - decodedBefore == 5 + 500)
    }

    @Test(arguments: [
        ("score < 3", "rating < 3"), ("score <= 3", "rating <= 3"), ("score > 96", "rating > 96"),
        ("score >= 96", "rating >= 96"), ("score BETWEEN {10, 12}", "rating BETWEEN {10, 12}"),
        ("score IN {1, 50, 99}", "rating IN {1, 50, 99}"), ("3 > score", "3 > rating"),
        ("score == 4 OR score == 5", "rating == 4 OR rating == 5"),
        ("score == 4 AND name ENDSWITH '4'", "rating == 4 AND name ENDSWITH '4'"),
        ("name == 'player 42'", "name ENDSWITH ' 42' AND name BEGINSWITH 'player'"),
        ("name < 'player 11'", "rating < 0 OR name < 'player 11'"),
    ])
    func rangesAnswerAsAFullReadDoes(indexed: String, scanned: String) throws {
        let directory = try TemporaryDirectory()
        let store = try LMDBTestModel.open(directory.file("ranges.lmdb"))
        try LMDBTestModel.insertPlayers(300, into: store)
        let indexedBefore = store.statistics.indexedFetches
        let decodedBefore = store.statistics.decodedRecords
        let viaIndex = try LMDBTestModel.ids(store, indexed)
        #expect(store.statistics.indexedFetches == indexedBefore + 1)
        #expect(store.statistics.decodedRecords - decodedBefore < 300)
        #expect(try LMDBTestModel.ids(store, scanned) == viaIndex)
        #expect(
            try LMDBTestModel.ids(store, indexed, entity: "Captain") == viaIndex.filter { $0.entityName == "Captain" })
    }

    @Test func aToOneReferenceIsFoundThroughTheForeignKeyIndex() throws {
        let directory = try TemporaryDirectory()
        let store = try LMDBTestModel.open(directory.file("teams.lmdb"))
        let players = try LMDBTestModel.insertPlayers(50, into: store)
        let members = Array(players.prefix(3))
        let team = try LMDBTestModel.saveTeam(of: members, into: store)
        let decodedBefore = store.statistics.decodedRecords
        let request = StoreFetchRequest(
            entityName: "Player",
            predicate: .comparison(ComparisonPredicate(.keyPath("team"), .equalTo, .constant(.objectID(team)))),
            resultType: .objectIDs)
        guard case .objectIDs(let found) = try store.execute(request) else { throw CancellationError() }
        #expect(Set(found) == Set(members))
        // The three members' records, and the team's, which the evaluator reads to compare identities.
        #expect(store.statistics.decodedRecords - decodedBefore == 4)
        #expect(try store.relatedObjectIDs(of: team, relationship: "players") == members)
        #expect(try LMDBTestModel.ids(store, "team.name == 'Engines'").count == 3)
    }

    @Test func countsWithoutAPredicateDecodeNoRecord() throws {
        let directory = try TemporaryDirectory()
        let store = try LMDBTestModel.open(directory.file("count.lmdb"))
        try LMDBTestModel.insertPlayers(120, into: store)
        let decodedBefore = store.statistics.decodedRecords
        #expect(try store.execute(StoreFetchRequest(entityName: "Player", resultType: .count)) == .count(120))
        #expect(try store.execute(StoreFetchRequest(entityName: "Captain", resultType: .count)) == .count(12))
        #expect(
            try store.execute(StoreFetchRequest(entityName: "Player", includesSubentities: false, resultType: .count))
                == .count(108))
        #expect(
            try store.execute(
                StoreFetchRequest(entityName: "Player", fetchOffset: 100, fetchLimit: 30, resultType: .count))
                == .count(20))
        #expect(store.statistics.decodedRecords == decodedBefore)
    }
}

/// Strings longer than an index key keeps are found by their prefix and told apart by the
/// evaluator.
@Suite struct LMDBLongStringIndexTests {
    @Test func longStringsWithZeroBytesShareAPrefixAndStillMatchExactly() throws {
        let directory = try TemporaryDirectory()
        let store = try LMDBTestModel.open(directory.file("long.lmdb"))
        let prefix = String(repeating: "\u{0}", count: 300)
        let ids = try store.permanentIDs(forEntities: ["Player", "Player", "Player"])
        let names = [prefix + "a", prefix + "b", "short"]
        try store.save(
            StoreChangeSet(
                inserted: zip(ids, names).map { id, name in
                    .init(
                        objectID: id,
                        values: ["name": .string(name), "score": 1, "rating": 1, "team": .null],
                        expectedVersion: 0)
                }))
        let request = StoreFetchRequest(
            entityName: "Player",
            predicate: .comparison(ComparisonPredicate(.keyPath("name"), .equalTo, .constant(.string(prefix + "b")))),
            resultType: .objectIDs)
        #expect(try store.execute(request) == .objectIDs([ids[1]]))
        let below = StoreFetchRequest(
            entityName: "Player",
            predicate: .comparison(ComparisonPredicate(.keyPath("name"), .lessThan, .constant(.string(prefix + "b")))),
            resultType: .objectIDs)
        #expect(try store.execute(below) == .objectIDs([ids[0]]))
    }
}

/// Counts whose predicate an index answers exactly read no record.
@Suite struct LMDBIndexCountTests {
    @Test(arguments: [
        ("score == 7", "rating == 7"), ("score <= 3", "rating <= 3"), ("score >= 95", "rating >= 95"),
        ("score BETWEEN {10, 12}", "rating BETWEEN {10, 12}"), ("score IN {1, 50, 1}", "rating IN {1, 50, 1}"),
        ("score == 4 OR score == 5 OR score <= 4", "rating <= 5"), ("score == nil", "rating == nil"),
    ])
    func exactCountsReadNoRecord(indexed: String, scanned: String) throws {
        let directory = try TemporaryDirectory()
        let store = try LMDBTestModel.open(directory.file("counts.lmdb"))
        try LMDBTestModel.insertPlayers(250, into: store)
        func count(_ format: String, entity: String = "Player") throws -> StoreFetchResult {
            try store.execute(
                StoreFetchRequest(entityName: entity, predicate: try FetchPredicate(format: format), resultType: .count)
            )
        }
        let decodedBefore = store.statistics.decodedRecords
        let viaIndex = try count(indexed)
        let captains = try count(indexed, entity: "Captain")
        #expect(store.statistics.decodedRecords == decodedBefore)
        #expect(try count(scanned) == viaIndex)
        #expect(try count(scanned, entity: "Captain") == captains)
    }

    /// The test model with a compound fetch index whose second element, `rating`, is indexed by
    /// nothing else.
    private static let compoundModel = LMDBTestModel.makeModel(fetchIndexes: [
        FetchIndexDescription(
            name: "byNameAndRating", elements: [.init(propertyName: "name"), .init(propertyName: "rating")])
    ])

    @Test func everyElementOfACompoundIndexIsIndexedAlsoForObjectsSavedBeforeIt() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("compound.lmdb")
        do {
            let store = try LMDBTestModel.open(url)
            try LMDBTestModel.insertPlayers(200, into: store)
        }
        let store = try LMDBTestModel.open(url, model: Self.compoundModel)
        let indexedBefore = store.statistics.indexedFetches
        let found = try LMDBTestModel.ids(store, "rating == 7")
        #expect(found.count == 2)
        #expect(store.statistics.indexedFetches == indexedBefore + 1)
        #expect(try LMDBTestModel.ids(store, "score == 7") == found)
    }

    @Test func aReadOnlyStoreSearchesOnlyTheIndexesItsFileHasEntriesFor() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("read-only.lmdb")
        do {
            let store = try LMDBTestModel.open(url)
            try LMDBTestModel.insertPlayers(200, into: store)
        }
        let store = try LMDBTestModel.open(url, model: Self.compoundModel, readOnly: true)
        let indexedBefore = store.statistics.indexedFetches
        #expect(try LMDBTestModel.ids(store, "rating == 7").count == 2)
        #expect(store.statistics.indexedFetches == indexedBefore)
        #expect(try LMDBTestModel.ids(store, "score == 7").count == 2)
        #expect(store.statistics.indexedFetches == indexedBefore + 1)
    }

    @Test func aFileWithoutARecordedIndexSetIsReindexedWhenOpened() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("unrecorded.lmdb")
        do {
            let store = try LMDBTestModel.open(url)
            try LMDBTestModel.insertPlayers(100, into: store)
            // A file written before the index set was recorded, whose index lost an entry.
            try store.environment.write { transaction in
                _ = try transaction.delete(store.databases.meta, LMDBLayout.indexesKey)
                try transaction.empty(store.databases.index)
            }
        }
        let store = try LMDBTestModel.open(url)
        #expect(try LMDBTestModel.ids(store, "score == 7").count == 1)
        #expect(try LMDBTestModel.ids(store, "name == 'player 42'").count == 1)
    }

    @Test func aPartialIndexHasEntriesForTheObjectsItsConditionSelectsAndServesFetchesThatImplyIt() throws {
        let model = LMDBTestModel.makeModel(fetchIndexes: [
            FetchIndexDescription(
                name: "highRatings", elements: [.init(propertyName: "rating")], partialIndexPredicate: "score >= 50")
        ])
        let directory = try TemporaryDirectory()
        let store = try LMDBTestModel.open(directory.file("partial.lmdb"), model: model)
        try LMDBTestModel.insertPlayers(200, into: store)
        var entries = 0
        try store.environment.read { transaction in
            try transaction.scan(store.databases.index, prefix: LMDBLayout.prefix(entity: "Player", property: "rating"))
            {
                _, _ in entries += 1
            }
        }
        // Players 50…99 and 150…199; the captains among them have entries under their own entity's prefix.
        #expect(entries == 90)
        let indexedBefore = store.statistics.indexedFetches
        #expect(try LMDBTestModel.ids(store, "score >= 50 AND rating == 77").count == 2)
        #expect(store.statistics.indexedFetches == indexedBefore + 1)
        #expect(try LMDBTestModel.ids(store, "rating == 7").count == 2)
        #expect(store.statistics.indexedFetches == indexedBefore + 1)
    }

    @Test func aPartialConditionReadingMoreThanTheRecordGivesEntriesForEveryObject() throws {
        let model = LMDBTestModel.makeModel(fetchIndexes: [
            FetchIndexDescription(
                name: "teamRatings", elements: [.init(propertyName: "rating")],
                partialIndexPredicate: "team.name == 'Engines'")
        ])
        let directory = try TemporaryDirectory()
        let store = try LMDBTestModel.open(directory.file("outside.lmdb"), model: model)
        try LMDBTestModel.insertPlayers(100, into: store)
        #expect(store.indexes.partial["Player"]?["rating"] == nil)
        let indexedBefore = store.statistics.indexedFetches
        #expect(try LMDBTestModel.ids(store, "rating == 7").count == 1)
        #expect(store.statistics.indexedFetches == indexedBefore + 1)
    }
}
