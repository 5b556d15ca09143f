import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// R-tree and partial fetch indexes: SQLite builds them as Core Data does, keeps them in step
/// with every write, and the planner searches them while fetches keep their exact answers.
@Suite struct SQLiteFetchIndexTests {
    static let model = makeModel()

    /// Places with an R-tree `byLocation` over latitude and `second`, an R-tree over rank, a
    /// partial index and a partial index whose predicate has no plain SQL form.
    static func makeModel(second: String = "longitude") -> ManagedObjectModel {
        let model = ManagedObjectModel {
            EntityDescription("Place") {
                AttributeDescription("latitude", .double, optional: false, default: 0.0).indexed()
                AttributeDescription("longitude", .double, optional: false, default: 0.0)
                AttributeDescription("rank", .integer32, optional: false, default: 0)
                AttributeDescription("name", .string)
                AttributeDescription("isOpen", .boolean)
                FetchIndexDescription(
                    name: "byLocation",
                    elements: [
                        .init(propertyName: "latitude", kind: .rTree), .init(propertyName: second, kind: .rTree),
                    ]
                )
                FetchIndexDescription(name: "byRank", elements: [.init(propertyName: "rank", kind: .rTree)])
                FetchIndexDescription(
                    name: "openByName", elements: [.init(propertyName: "name")], partialIndexPredicate: "isOpen == YES")
                FetchIndexDescription(
                    name: "patterned", elements: [.init(propertyName: "name")],
                    partialIndexPredicate: "name MATCHES 'a.*'")
            }
        }
        try! model.freeze()
        return model
    }

    let directory: TemporaryDirectory
    let store: SQLiteStore
    let places: [ObjectID]

    /// A grid of 10 × 10 places, latitude and longitude 0…9 (plus a thousandth), rank the row.
    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteStoreFile.open(StoreOpenRequest(model: Self.model, url: directory.file("places.sqlite")))
        places = try store.permanentIDs(forEntities: Array(repeating: "Place", count: 100))
        let inserted = places.enumerated().map { index, id in
            StoreChangeSet.ObjectChange(
                objectID: id,
                values: [
                    "latitude": .double(Double(index / 10) + 0.001), "longitude": .double(Double(index % 10) + 0.001),
                    "rank": .integer32(Int32(index / 10)), "name": .string("place \(index)"),
                    "isOpen": .boolean(index.isMultiple(of: 2)),
                ],
                expectedVersion: 0)
        }
        try store.save(StoreChangeSet(inserted: inserted))
    }

    private func names(_ sql: String) throws -> [String] {
        try store.read("listing") { connection in
            try connection.statement(sql).rows { row -> String in
                guard case .text(let name) = row.value(at: 0) else { return "" }
                return name
            }
        }
    }

    /// The plan SQLite makes for the store's fetch of places matching `format`, as one line;
    /// the whole predicate must translate to SQL.
    private func plan(_ format: String) throws -> String {
        let explanation = try store.explain(
            StoreFetchRequest(
                entityName: "Place", predicate: try FetchPredicate(format: format), resultType: .objectIDs))
        #expect(explanation.evaluatedInMemory.isEmpty && explanation.evaluatedPerRow.isEmpty, "\(format) is in SQL")
        return explanation.enginePlan.joined(separator: "; ")
    }

    private func fetch(_ format: String) throws -> Set<ObjectID> {
        let result = try store.execute(
            StoreFetchRequest(
                entityName: "Place", predicate: try FetchPredicate(format: format), resultType: .objectIDs))
        guard case .objectIDs(let ids) = result else { return [] }
        return Set(ids)
    }

    private func expected(_ keep: (Int) -> Bool) -> Set<ObjectID> {
        Set(places.enumerated().filter { keep($0.offset) }.map(\.element))
    }

    @Test func theRTreeIsAVirtualTableKeptByTriggers() throws {
        let tables = try names("SELECT name FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%'")
        #expect(Set(tables) == ["Z_Place_byLocation", "Z_Place_byRank"])
        let triggers = try names("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name")
        #expect(triggers.count == 6)
        #expect(triggers.contains("Z_Place_byLocation_INSERT"))
        let rows = try names("SELECT count(*) || '' FROM Z_Place_byLocation")
        #expect(rows == ["100"])
    }

    @Test func aPartialIndexHasItsPredicateAsItsCondition() throws {
        let sql = try names("SELECT sql FROM sqlite_master WHERE name = 'Z_Place_openByName'")
        #expect(
            sql == [
                "CREATE INDEX Z_Place_openByName ON ZPLACE (ZNAME COLLATE BINARY ASC) WHERE (ZISOPEN = 1 AND ZISOPEN IS NOT NULL)"
            ])
        #expect(try names("SELECT name FROM sqlite_master WHERE name = 'Z_Place_patterned'").isEmpty)
        #expect(try plan("isOpen == YES AND name == 'place 4'").contains("USING INDEX Z_Place_openByName"))
        #expect(!(try plan("name == 'place 4'").contains("Z_Place_openByName")))
        #expect(try fetch("isOpen == YES AND name == 'place 4'") == [places[4]])
        #expect(try fetch("isOpen == YES AND name == 'place 5'").isEmpty)
    }

    @Test func aBoundingBoxSearchesTheRTreeAndKeepsItsExactAnswer() throws {
        let box = "latitude BETWEEN {2.001, 4.001} AND longitude >= 7.001 AND longitude < 9"
        #expect(try plan(box).contains("VIRTUAL TABLE INDEX"))
        #expect(try fetch(box) == expected { (2...4).contains($0 / 10) && (7...8).contains($0 % 10) })
        // Just below and above a stored value: the R-tree's 32-bit boxes must not decide alone.
        #expect(try fetch("latitude >= 3.0010000001 AND longitude >= 0") == expected { $0 / 10 > 3 })
        #expect(try fetch("latitude <= 3.0009999999 AND longitude >= 0") == expected { $0 / 10 < 3 })
        #expect(try fetch("latitude == 3.001 AND longitude == 4.001") == [places[34]])
    }

    @Test func aSingleAttributeRTreeWithoutABinaryIndexIsSearched() throws {
        #expect(try plan("rank >= 7").contains("VIRTUAL TABLE INDEX"))
        #expect(try fetch("rank >= 7") == expected { $0 / 10 >= 7 })
    }

    @Test func indexedByAndNoindexChooseTheIndexes() throws {
        // Latitude has a binary index too: alone, it is the one searched unless the R-tree is named.
        #expect(try plan("indexed:by:(latitude, 'byLocation') > 8").contains("VIRTUAL TABLE INDEX"))
        #expect(!(try plan("latitude > 8").contains("VIRTUAL TABLE")))
        #expect(!(try plan("noindex:(rank) >= 7").contains("VIRTUAL TABLE")))
        #expect(try fetch("indexed:by:(latitude, 'byLocation') > 8") == expected { $0 / 10 >= 8 })
        #expect(try fetch("noindex:(rank) >= 7") == expected { $0 / 10 >= 7 })
    }

    @Test func updatesAndDeletionsKeepTheRTreeInStep() throws {
        let moved = StoreChangeSet.ObjectChange(
            objectID: places[0],
            values: [
                "latitude": .double(50), "longitude": .double(50), "rank": .integer32(0), "name": .string("moved"),
                "isOpen": .boolean(true),
            ],
            expectedVersion: 1)
        try store.save(
            StoreChangeSet(updated: [moved], deleted: [.init(objectID: places[99], expectedVersion: 1)]))
        #expect(try fetch("latitude > 40 AND longitude > 40") == [places[0]])
        #expect(try fetch("latitude BETWEEN {9, 10} AND longitude BETWEEN {9, 10}").isEmpty)
        #expect(try names("SELECT count(*) || '' FROM Z_Place_byLocation") == ["99"])
        _ = try store.executeBatchDelete(
            StoreBatchDelete(.matching(entityName: "Place", includesSubentities: true, predicate: nil)))
        #expect(try names("SELECT count(*) || '' FROM Z_Place_byRank") == ["0"])
    }

    @Test func numbersBeyondThirtyTwoBitFloatsAreFoundAsTheComparisonsSay() throws {
        let far = try store.permanentIDs(forEntities: ["Place"])[0]
        let values: [String: AttributeValue] = [
            "latitude": .double(1e300), "longitude": .double(-1e300), "rank": .integer32(0), "name": .string("far"),
            "isOpen": .boolean(false),
        ]
        try store.save(StoreChangeSet(inserted: [.init(objectID: far, values: values, expectedVersion: 0)]))
        #expect(try fetch("latitude < 2e300 AND longitude > -2e300").contains(far))
        #expect(try fetch("latitude BETWEEN {1e299, 1e301} AND longitude BETWEEN {-1e301, -1e299}") == [far])
    }

    @Test func anRTreeTheModelDescribesOtherwiseIsNotSearched() throws {
        let changed = Self.makeModel(second: "rank")
        let reopened = try SQLiteStoreFile.open(StoreOpenRequest(model: changed, url: directory.file("places.sqlite")))
        #expect(reopened.rTrees.indexes.map(\.fetchIndexName) == ["byRank"])
        let result = try reopened.execute(
            StoreFetchRequest(
                entityName: "Place", predicate: try FetchPredicate(format: "latitude > 8 AND rank < 9"),
                resultType: .count))
        #expect(result == .count(10))
    }
}
