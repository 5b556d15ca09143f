import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// Fetch indexes on PostgreSQL: an attribute marked indexed has a B-tree index, a partial index
/// has its predicate as its `WHERE`, an R-tree index of two attributes is a GiST index on their
/// point, one of one attribute a B-tree; PostgreSQL's planner searches them, fetches keep their exact answers,
/// and an index the store cannot build is skipped with a notice naming it.
@Suite struct PostgresFetchIndexTests {
    static let model: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Place") {
                AttributeDescription("latitude", .double, optional: false, default: 0.0)
                AttributeDescription("longitude", .double, optional: false, default: 0.0)
                AttributeDescription("rank", .integer32, optional: false, default: 0)
                AttributeDescription("name", .string).indexed()
                AttributeDescription("isOpen", .boolean)
                FetchIndexDescription(
                    name: "byLocation",
                    elements: [
                        .init(propertyName: "latitude", kind: .rTree), .init(propertyName: "longitude", kind: .rTree),
                    ])
                FetchIndexDescription(name: "byRank", elements: [.init(propertyName: "rank", kind: .rTree)])
                FetchIndexDescription(
                    name: "openByName", elements: [.init(propertyName: "name")], partialIndexPredicate: "isOpen == YES")
                FetchIndexDescription(
                    name: "patterned", elements: [.init(propertyName: "name")],
                    partialIndexPredicate: "name MATCHES 'a.*'")
                FetchIndexDescription(name: "pkey", elements: [.init(propertyName: "rank")])
                FetchIndexDescription(
                    name: "cube",
                    elements: [
                        .init(propertyName: "latitude", kind: .rTree), .init(propertyName: "longitude", kind: .rTree),
                        .init(propertyName: "rank", kind: .rTree),
                    ])
            }
        }
        try! model.freeze()
        return model
    }()

    let url: URL
    let log = CapturedLog()
    let store: PostgresStore
    let places: [ObjectID]
    let connection: PostgresConnection

    /// A grid of 50 × 50 places, latitude and longitude 0…49 (plus a thousandth), rank the
    /// row; analysed, so that the planner knows the table's size.
    init() throws {
        url = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("fetch-indexes"))
        let coordinator = try PersistentStoreCoordinator(
            model: Self.model, storeTypes: [.postgres], logger: log.logger(level: .notice))
        store = try #require(try coordinator.addStore(type: StoreType.postgres.name, at: url) as? PostgresStore)
        places = try store.permanentIDs(forEntities: Array(repeating: "Place", count: 2_500))
        let inserted = places.enumerated().map { index, id in
            StoreChangeSet.ObjectChange(
                objectID: id,
                values: [
                    "latitude": .double(Double(index / 50) + 0.001), "longitude": .double(Double(index % 50) + 0.001),
                    "rank": .integer32(Int32(index / 50)), "name": .string("place \(index)"),
                    "isOpen": .boolean(index.isMultiple(of: 2)),
                ],
                expectedVersion: 0)
        }
        try store.save(StoreChangeSet(inserted: inserted))
        let location = try PostgresLocation(url: url)
        connection = try PostgresConnection(conninfo: location.conninfo, serverName: location.displayName)
        _ = try connection.execute("ANALYZE \(PostgresIdentifier.quoted(location.schema)).\"Place\"")
    }

    /// The definition of each index of the store's schema whose name starts with `Place_`.
    private func indexDefinitions() throws -> [String: String] {
        let location = try PostgresLocation(url: url)
        let rows = try connection.execute(
            "SELECT indexname::text, indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE 'Place\\_%'",
            [.text(location.schema)])
        var definitions: [String: String] = [:]
        for row in 0..<rows.rowCount {
            let text = { (column: Int) in String(decoding: rows.bytes(row, column) ?? [], as: UTF8.self) }
            definitions[text(0)] = text(1)
        }
        return definitions
    }

    /// PostgreSQL's plan for the store's fetch of places matching `format`, as one line; the
    /// whole predicate must translate to SQL.
    private func plan(_ format: String) throws -> String {
        let explanation = try store.explain(
            StoreFetchRequest(
                entityName: "Place", predicate: try FetchPredicate(format: format), resultType: .objectIDs))
        #expect(explanation.evaluatedInMemory.isEmpty, "\(format) is in SQL")
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

    @Test func eachIndexIsBuiltAsItsKindAsksAndTheOthersAreNamedInANotice() throws {
        let definitions = try indexDefinitions()
        #expect(
            Set(definitions.keys) == [
                "Place_pkey", "Place_name_idx", "Place_byLocation", "Place_byRank", "Place_openByName",
            ])
        #expect(definitions["Place_name_idx"]?.hasSuffix("USING btree (name)") == true, "an attribute marked indexed")
        #expect(definitions["Place_byLocation"]?.contains("USING gist (point(GREATEST(LEAST(latitude,") == true)
        #expect(definitions["Place_byRank"]?.contains("USING btree (rank)") == true)
        #expect(
            definitions["Place_openByName"]?.hasSuffix("WHERE ((\"isOpen\" = true) AND (\"isOpen\" IS NOT NULL))")
                == true)
        let reasons = log.lines("Fetch index skipped").compactMap { $0.metadata["reason"].map { "\($0)" } }
        #expect(reasons.count == 3)
        #expect(reasons.contains { $0.hasPrefix("'Place.pkey' would be named 'Place_pkey'") })
        #expect(reasons.contains { $0.hasPrefix("'Place.cube' is an R-tree index of 3 elements") })
        #expect(reasons.contains { $0.hasPrefix("'Place.patterned' is a partial index") })
    }

    @Test func aPartialIndexServesTheFetchesItsPredicateCovers() throws {
        #expect(try plan("isOpen == YES AND name == 'place 4'").contains("Place_openByName"))
        #expect(try plan("name == 'place 4'").contains("Place_name_idx"))
        #expect(try fetch("isOpen == YES AND name == 'place 4'") == [places[4]])
        #expect(try fetch("isOpen == YES AND name == 'place 5'").isEmpty)
    }

    @Test func aBoundingBoxSearchesTheGiSTIndexAndKeepsItsExactAnswer() throws {
        let box = "latitude BETWEEN {2.001, 4.001} AND longitude >= 7.001 AND longitude < 9"
        #expect(try plan(box).contains("Place_byLocation"))
        #expect(try fetch(box) == expected { (2...4).contains($0 / 50) && (7...8).contains($0 % 50) })
        // Just below and above a stored value: the box's comparisons must not decide alone.
        #expect(try fetch("latitude >= 3.0010000001 AND longitude >= 0") == expected { $0 / 50 > 3 })
        #expect(try fetch("latitude <= 3.0009999999 AND longitude >= 0") == expected { $0 / 50 < 3 })
        #expect(try fetch("latitude == 3.001 AND longitude == 4.001") == [places[154]])
    }

    @Test func aSingleAttributeRTreeIsABTreeIndex() throws {
        #expect(try plan("rank >= 48").contains("Place_byRank"))
        #expect(try fetch("rank >= 48") == expected { $0 / 50 >= 48 })
    }

    @Test func indexedByNamesTheGiSTIndexAndNoindexBoundsNothing() throws {
        #expect(try plan("indexed:by:(latitude, 'byLocation') > 47").contains("Place_byLocation"))
        #expect(!(try plan("latitude > 47").contains("Place_byLocation")))
        #expect(!(try plan("noindex:(latitude) > 47 AND longitude > 47").contains("Place_byLocation")))
        #expect(try fetch("indexed:by:(latitude, 'byLocation') > 47") == expected { $0 / 50 >= 47 })
        #expect(try fetch("noindex:(latitude) > 47 AND longitude > 47") == expected { $0 / 50 >= 47 && $0 % 50 >= 47 })
    }

    @Test func infinitiesHugeNumbersAndNaNAreFoundAsTheComparisonsSay() throws {
        let values: [(Double, Double)] = [(.infinity, 1), (1e308, -1e308), (-.infinity, -.infinity), (.nan, 1)]
        let far = try store.permanentIDs(forEntities: Array(repeating: "Place", count: values.count))
        let inserted = zip(far, values).map { id, value in
            StoreChangeSet.ObjectChange(
                objectID: id, values: ["latitude": .double(value.0), "longitude": .double(value.1)], expectedVersion: 0)
        }
        try store.save(StoreChangeSet(inserted: inserted))
        #expect(try fetch("latitude >= 1e300 AND longitude >= 0") == [far[0]])
        #expect(try fetch("latitude > 1e307 AND longitude < 0") == [far[1]])
        #expect(try fetch("latitude < -1e308 AND longitude < -1e308") == [far[2]])
        #expect(try fetch("latitude == 1e308 AND longitude == -1e308") == [far[1]])
        #expect(try fetch("latitude > 50 AND longitude BETWEEN {0, 2}") == [far[0]])
    }
}
