import Foundation
import Strata
import StrataSQLite
import StrataTestSupport
import Testing

/// SQLite answers dictionary fetches itself (projections, groups, aggregates, distinct rows)
/// without loading objects, with exactly the rows the core computes from the objects: each
/// request is compared with the same request on an in-memory store holding the same data.
@Suite struct SQLiteDictionaryFetchTests {
    static let model: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Sale") {
                AttributeDescription("region", .string)
                AttributeDescription("units", .integer32)
                AttributeDescription("price", .double)
                AttributeDescription("day", .date)
                AttributeDescription("paid", .boolean)
                RelationshipDescription.toOne("shop", destination: "Shop", inverse: "sales")
            }
            EntityDescription("Shop") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("sales", destination: "Sale", inverse: "shop")
            }
        }
        try! model.freeze()
        return model
    }()

    let directory: TemporaryDirectory
    let sqlite: ManagedObjectContext
    let memory: ManagedObjectContext

    /// The same 40 sales in both stores, with nulls, a -0 and a NaN price among them.
    init() throws {
        directory = try TemporaryDirectory()
        let onDisk = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.sqlite])
        try onDisk.addStore(type: "SQLite", at: directory.file("sales.sqlite"))
        let inMemory = try PersistentStoreCoordinator(model: Self.model, storeTypes: [])
        try inMemory.addStore(type: StoreType.inMemory.name)
        for coordinator in [onDisk, inMemory] {
            let context = ManagedObjectContext(coordinator: coordinator)
            try context.performAndWait { () throws in
                let shops = try ["North", "South", "East"].map { name in
                    let shop = try context.insertNewObject(forEntityName: "Shop")
                    try shop.setValue(.string(name), forKey: "name")
                    return shop
                }
                for index in 0..<40 {
                    let sale = try context.insertNewObject(forEntityName: "Sale")
                    let prices: [AttributeValue] = [.double(-0.0), .double(.nan), .null, .double(0)]
                    try sale.setValue(
                        index % 7 == 6 ? .null : .string(["ä", "b", "a\u{308}", "c"][index % 4]), forKey: "region")
                    try sale.setValue(index % 9 == 8 ? .null : .integer32(Int32(index % 11)), forKey: "units")
                    try sale.setValue(index < 4 ? prices[index] : .double(Double(index % 5) * 1.5), forKey: "price")
                    try sale.setValue(
                        .date(Date(timeIntervalSinceReferenceDate: Double(index % 3) * 86_400)), forKey: "day")
                    try sale.setValue(.boolean(index.isMultiple(of: 2)), forKey: "paid")
                    if index % 5 != 4 { try sale.setObject(shops[index % 3], forKey: "shop") }
                }
                try context.save()
            }
        }
        sqlite = ManagedObjectContext(coordinator: onDisk)
        memory = ManagedObjectContext(coordinator: inMemory)
    }

    private static func aggregates(_ formats: [String: String]) throws -> [ExpressionDescription] {
        try formats.sorted { $0.key < $1.key }.map {
            ExpressionDescription(name: $0.key, expression: try FetchExpression(format: $0.value))
        }
    }

    static let requests: [(String, @Sendable (inout FetchRequest<ManagedObject>) throws -> Void)] = [
        (
            "a projection, sorted and paged",
            { request in
                request.propertiesToFetch = ["region", "units", "shop"]
                request.sortDescriptors = [FetchSortDescriptor("units", ascending: false)]
                request.fetchOffset = 2
                request.fetchLimit = 9
            }
        ),
        (
            "distinct regions by price",
            { request in
                request.propertiesToFetch = ["region"]
                request.sortDescriptors = [FetchSortDescriptor("price")]
                request.returnsDistinctResults = true
            }
        ),
        (
            "distinct shops",
            { request in
                request.propertiesToFetch = ["shop"]
                request.returnsDistinctResults = true
            }
        ),
        (
            "groups by region",
            { request in
                request.propertiesToGroupBy = ["region"]
                request.expressionsToFetch = try aggregates([
                    "n": "count:(units)", "total": "sum:(units)", "mean": "average:(units)", "low": "min:(price)",
                    "high": "max:(price)", "first": "min:(day)", "most": "max:(units)",
                ])
            }
        ),
        (
            "groups by price, with its -0 and NaN",
            { request in
                request.propertiesToGroupBy = ["price"]
                request.expressionsToFetch = try aggregates(["n": "count:(units)"])
            }
        ),
        (
            "groups by day and paid, with a having-predicate and a page",
            { request in
                request.propertiesToGroupBy = ["day", "paid"]
                request.sortDescriptors = [FetchSortDescriptor("units")]
                request.expressionsToFetch = try aggregates(["total": "sum:(units)"])
                request.havingPredicate = try FetchPredicate(format: "total > 20")
                request.fetchLimit = 2
            }
        ),
        (
            "aggregates of every matching sale",
            { request in
                request.predicate = try FetchPredicate(format: "units >= 3")
                request.expressionsToFetch = try aggregates(["n": "count:(units)", "mean": "average:(units)"])
            }
        ),
        (
            "aggregates when nothing matches",
            { request in
                request.predicate = try FetchPredicate(format: "units > 100")
                request.expressionsToFetch = try aggregates([
                    "n": "count:(units)", "total": "sum:(units)", "low": "min:(units)",
                ])
            }
        ),
    ]

    @Test(arguments: requests.indices)
    func theStoreGivesTheCoresRowsWithoutLoadingObjects(_ index: Int) throws {
        let (label, shape) = Self.requests[index]
        var request = FetchRequest<ManagedObject>(entityName: "Sale")
        try shape(&request)
        let fromSQL = try sqlite.performAndWait { try sqlite.fetchDictionaries(request) }
        let loaded = sqlite.performAndWait { sqlite.registeredObjects.count }
        let fromObjects = try memory.performAndWait { try memory.fetchDictionaries(request) }
        #expect(!fromObjects.isEmpty, "\(label)")
        #expect(Self.comparable(fromSQL) == Self.comparable(fromObjects), "\(label)")
        #expect(loaded == 0, "\(label)")
    }

    /// `rows` with object IDs named by entity and reference, as the two stores' identifiers differ.
    private static func comparable(_ rows: [[String: AttributeValue]]) -> [[String: AttributeValue]] {
        rows.map { row in
            row.mapValues { value in
                guard case .objectID(let id) = value else { return value }
                return .string("\(id.entityName) \(id.reference)")
            }
        }
    }

    @Test func distinctGroupsAndEmptyRowsAreTheCores() throws {
        var distinctGroups = FetchRequest<ManagedObject>(entityName: "Sale")
        distinctGroups.propertiesToGroupBy = ["region", "paid"]
        distinctGroups.propertiesToFetch = ["region"]
        distinctGroups.returnsDistinctResults = true
        var empty = FetchRequest<ManagedObject>(entityName: "Sale")
        empty.propertiesToFetch = []
        empty.fetchLimit = 3
        for request in [distinctGroups, empty] {
            let fromSQLite = try sqlite.performAndWait { try sqlite.fetchDictionaries(request) }
            let fromObjects = try memory.performAndWait { try memory.fetchDictionaries(request) }
            #expect(!fromObjects.isEmpty)
            #expect(Self.comparable(fromSQLite) == Self.comparable(fromObjects))
        }
    }

    @Test func aContextWithUnsavedChangesComputesTheRowsFromItsObjects() throws {
        var request = FetchRequest<ManagedObject>(entityName: "Sale")
        request.propertiesToGroupBy = ["region"]
        request.expressionsToFetch = try Self.aggregates(["n": "count:(units)"])
        let rows = try sqlite.performAndWait { () throws in
            let sale = try sqlite.insertNewObject(forEntityName: "Sale")
            try sale.setValue(.string("new"), forKey: "region")
            try sale.setValue(.integer32(1), forKey: "units")
            return try sqlite.fetchDictionaries(request)
        }
        #expect(rows.contains { $0["region"] == .string("new") && $0["n"] == .integer64(1) })
    }
}
