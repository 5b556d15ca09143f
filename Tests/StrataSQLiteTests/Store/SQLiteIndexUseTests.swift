import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// Conditions on an indexed attribute or a to-one key search an index instead of scanning the
/// table, and fetches and counts keep their answers while doing so.
@Suite struct SQLiteIndexUseTests {
    static let model: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Item") {
                AttributeDescription("number", .integer64).indexed()
                AttributeDescription("name", .string)
                RelationshipDescription.toOne("parent", destination: "Item", inverse: "children")
                RelationshipDescription.toMany("children", destination: "Item", inverse: "parent")
            }
        }
        try! model.freeze()
        return model
    }()

    let directory: TemporaryDirectory
    let store: SQLiteStore
    let items: [ObjectID]

    /// Twenty items whose numbers fall as their keys rise (20 down to 1); the first is the
    /// parent of the next four.
    init() throws {
        directory = try TemporaryDirectory()
        store = try SQLiteStoreFile.open(StoreOpenRequest(model: Self.model, url: directory.file("items.sqlite")))
        items = try store.permanentIDs(forEntities: Array(repeating: "Item", count: 20))
        let inserted = items.enumerated().map { index, id in
            StoreChangeSet.ObjectChange(
                objectID: id,
                values: [
                    "number": .integer64(Int64(20 - index)), "name": .string("item \(index)"),
                    "parent": (1...4).contains(index) ? .objectID(items[0]) : .null,
                ],
                toManyRelationships: ["children": index == 0 ? Array(items[1...4]) : []], expectedVersion: 0)
        }
        try store.save(StoreChangeSet(inserted: inserted))
    }

    /// How SQLite would run a select of the items matching `predicate`, as the store translates it.
    private func plan(_ predicate: FetchPredicate) throws -> String {
        let entity = try store.entitySchema(named: "Item")
        var translator = SQLitePredicateTranslator(store: store, entity: entity, table: try store.table(of: "Item"))
        let translated = translator.condition(for: predicate)
        let condition = try #require(translated)
        let sql = "EXPLAIN QUERY PLAN SELECT t0.ZNAME FROM ZITEM t0 WHERE \(condition)"
        return try store.read("explaining") { connection in
            try connection.statement(sql).rows(translator.parameters) { row -> String in
                guard case .text(let step) = row.value(at: 3) else { return "" }
                return step
            }
        }
        .joined(separator: "; ")
    }

    @Test func anIndexedAttributeHasAnIndexOfItsOwn() throws {
        let names = try store.read("listing indexes") { connection in
            try connection.statement("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ZITEM'")
                .rows { row -> String in
                    guard case .text(let name) = row.value(at: 0) else { return "" }
                    return name
                }
        }
        #expect(Set(names) == ["ZITEM_ZNUMBER_INDEX", "ZITEM_ZPARENT_INDEX"])
    }

    @Test(arguments: ["number < 5", "number >= 18", "number == 7", "number BETWEEN {3, 6}", "number IN {2, 9}"])
    func aComparisonOfAnIndexedAttributeSearchesItsIndex(_ format: String) throws {
        #expect(try plan(FetchPredicate(format: format)).contains("USING INDEX ZITEM_ZNUMBER_INDEX"), "\(format)")
    }

    @Test func aComparisonOfAToOneSearchesItsIndex() throws {
        let predicate = try FetchPredicate(format: "parent == %@", AttributeValue.objectID(items[0]))
        #expect(try plan(predicate).contains("USING INDEX ZITEM_ZPARENT_INDEX"))
    }

    @Test func anUnsortedFetchThroughTheIndexStillComesInKeyOrder() throws {
        var request = StoreFetchRequest(entityName: "Item", predicate: try FetchPredicate(format: "number <= 10"))
        let snapshotResult = try store.execute(request)
        request.resultType = .objectIDs
        guard case .objectIDs(let ids) = try store.execute(request), case .snapshots(let snapshots) = snapshotResult
        else {
            Issue.record("unexpected result types")
            return
        }
        #expect(ids == Array(items[10...]))
        #expect(snapshots.map(\.objectID) == Array(items[10...]))
    }

    @Test func countsAreRightWithAndWithoutAPage() throws {
        let predicate = try FetchPredicate(format: "number > 4")
        let whole = StoreFetchRequest(entityName: "Item", predicate: predicate, resultType: .count)
        #expect(try store.execute(whole) == .count(16))
        #expect(try store.execute(StoreFetchRequest(entityName: "Item", resultType: .count)) == .count(20))
        var paged = whole
        paged.fetchOffset = 10
        paged.fetchLimit = 4
        #expect(try store.execute(paged) == .count(4))
        paged.fetchOffset = 14
        #expect(try store.execute(paged) == .count(2))
    }

    @Test func nullsStayOutOfComparisonsAndInsideTheirNegations() throws {
        let extra = try store.permanentIDs(forEntities: ["Item"])[0]
        try store.save(
            StoreChangeSet(inserted: [
                .init(objectID: extra, values: ["name": "no number"], toManyRelationships: [:], expectedVersion: 0)
            ]))
        func count(_ format: String) throws -> StoreFetchResult {
            try store.execute(
                StoreFetchRequest(entityName: "Item", predicate: try FetchPredicate(format: format), resultType: .count)
            )
        }
        #expect(try count("number < 100") == .count(20))
        #expect(try count("NOT (number < 100)") == .count(1))
        #expect(try count("NOT (number BETWEEN {1, 100})") == .count(1))
    }
}
