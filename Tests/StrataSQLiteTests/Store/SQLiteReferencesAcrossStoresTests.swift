import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// The SQLite layout of relationships leading to another store's objects
/// (docs/CROSS-STORE-RELATIONSHIPS.md): a to-one keeps the object's URI in a `VARCHAR` column,
/// a to-many in a table of its own, and the store's SQL compares them by ID.
@Suite struct SQLiteReferencesAcrossStoresTests {
    /// A coordinator with the visits in an SQLite file in `folder` and the cities in memory.
    struct Stack {
        let folder: TemporaryDirectory
        let coordinator: PersistentStoreCoordinator
        var url: URL { folder.file("diary.sqlite") }
        var sqlite: SQLiteStore { coordinator.stores.compactMap { $0 as? SQLiteStore }[0] }

        init() throws {
            folder = try TemporaryDirectory()
            coordinator = try PersistentStoreCoordinator(
                model: CitiesAndVisits.model, storeTypes: [.sqlite])
            try coordinator.addStore(type: "InMemory", configuration: "Atlas")
            try addSQLiteStore()
        }

        func addSQLiteStore() throws {
            try coordinator.addStore(type: "SQLite", configuration: "Diary", at: url)
        }

        func reopenSQLiteStore() throws {
            try coordinator.remove(sqlite)
            try addSQLiteStore()
        }

        /// Saves ``CitiesAndVisits``' objects.
        func saveVisits() throws -> (cities: [ObjectID], visits: [ObjectID]) {
            try CitiesAndVisits.save(in: coordinator)
        }

        /// The notes of the visits the SQLite store itself finds for `format`, in SQL alone.
        func notes(_ format: String, _ arguments: [any PredicateArgument] = []) throws -> [String] {
            let before = sqlite.statistics.inMemoryFetches
            let request = StoreFetchRequest(
                entityName: "Visit", predicate: try FetchPredicate(format: format, arguments: arguments),
                sortDescriptors: [FetchSortDescriptor("note")])
            guard case .snapshots(let snapshots) = try sqlite.execute(request) else { return [] }
            #expect(sqlite.statistics.inMemoryFetches == before, "\(format) fell back to memory")
            return snapshots.map { snapshot in
                if case .string(let note)? = snapshot.values["note"] { note } else { "" }
            }
        }
    }

    @Test func aRelationshipLeadingOutGetsAURIColumnOrAReferenceTable() throws {
        try CitiesAndVisits.model.freeze()
        let layout = SQLiteSchema(schema: CitiesAndVisits.model.schema, entityNames: ["Visit"])
        let visit = try #require(layout.tableOfEntity["Visit"])
        #expect(
            visit.columns.contains(
                SQLiteColumn(name: "ZCITY", type: .varchar, role: .reference(entity: "Visit", name: "city"))))
        #expect(layout.joinTables.isEmpty)
        #expect(
            layout.referenceTables == [
                .init(name: "Z_1SIGHTS", entity: "Visit", relationship: "sights", isOrdered: true)
            ])
        #expect(
            layout.createStatements.contains(
                "CREATE TABLE Z_1SIGHTS ( ZOWNER INTEGER, ZREFERENCE VARCHAR, Z_FOK_REFERENCE INTEGER, "
                    + "PRIMARY KEY (ZOWNER, ZREFERENCE) )"))
        #expect(layout.indexes.contains { $0.name == "ZVISIT_ZCITY_INDEX" })
        #expect(layout.indexes.contains { $0.name == "Z_1SIGHTS_ZREFERENCE_INDEX" })

        let whole = SQLiteSchema(schema: CitiesAndVisits.model.schema, entityNames: ["City", "Visit"])
        #expect(whole.referenceTables.isEmpty)
        #expect(whole.tableOfEntity["Visit"]?.columns.contains { $0.name == "ZCITY" && $0.type == .integer } == true)
    }

    @Test func referencesReadBackInOrderAfterReopeningAndTheFileHoldsURIs() throws {
        let stack = try Stack()
        let (cities, visits) = try stack.saveVisits()
        try stack.reopenSQLiteStore()
        let first = try #require(try stack.sqlite.snapshot(for: visits[0]))
        #expect(first.values["city"] == .objectID(cities[0]))
        #expect(try stack.sqlite.relatedObjectIDs(of: visits[0], relationship: "sights") == [cities[2], cities[0]])
        #expect(
            try stack.sqlite.relatedObjectIDs(ofEach: visits, relationship: "sights") == [
                visits[0]: [cities[2], cities[0]], visits[1]: [], visits[2]: [cities[1]],
            ])
        let connection = try SQLiteConnection(path: stack.url.path, mode: .readOnly)
        let stored = try connection.statement("SELECT ZCITY FROM ZVISIT ORDER BY Z_PK").rows { $0.value(at: 0) }
        #expect(stored == [.text(cities[0].uriString), .text(cities[1].uriString), .null])
        let rows = try connection.statement("SELECT count(*) FROM Z_1SIGHTS").rows { $0.value(at: 0) }
        #expect(rows == [.integer(3)])
    }

    @Test func comparisonsByIDRunInSQL() throws {
        let stack = try Stack()
        let (cities, _) = try stack.saveVisits()
        #expect(try stack.notes("city == %@", [cities[0]]) == ["a"])
        #expect(try stack.notes("city != %@", [cities[0]]) == ["b", "none"])
        #expect(try stack.notes("city == nil") == ["none"])
        #expect(try stack.notes("city != nil") == ["a", "b"])
        #expect(try stack.notes("city IN %@", [[cities[1], cities[2]]]) == ["b"])
        #expect(try stack.notes("ANY sights IN %@", [[cities[1], cities[2]]]) == ["a", "none"])
        #expect(try stack.notes("ALL sights IN %@", [[cities[0], cities[2]]]) == ["a", "b"])
        #expect(try stack.notes("%@ IN sights", [cities[0]]) == ["a"])
        #expect(try stack.notes("sights CONTAINS %@", [cities[1]]) == ["none"])
        #expect(try stack.notes("sights.@count == 2") == ["a"])
        #expect(try stack.notes("ANY sights == %@ OR city == %@", [cities[1], cities[1]]) == ["b", "none"])
    }

    @Test func aDictionaryFetchReadsTheReferencedID() throws {
        let stack = try Stack()
        let (cities, _) = try stack.saveVisits()
        let rows = try stack.sqlite.executeDictionaryFetch(
            StoreDictionaryFetch(
                entityName: "Visit", sortDescriptors: [FetchSortDescriptor("note")],
                columns: [.property("note"), .property("city")]))
        #expect(rows?.map { $0["city"] } == [.objectID(cities[0]), .objectID(cities[1]), .null])
    }

    @Test func deletingAVisitRemovesItsReferenceRows() throws {
        let stack = try Stack()
        let (_, visits) = try stack.saveVisits()
        let context = ManagedObjectContext(coordinator: stack.coordinator)
        try context.performAndWait {
            try context.delete(try context.existingObject(with: visits[0]))
            try context.save()
        }
        let connection = try SQLiteConnection(path: stack.url.path, mode: .readOnly)
        let owners = try connection.statement("SELECT DISTINCT ZOWNER FROM Z_1SIGHTS").rows { $0.value(at: 0) }
        #expect(owners == [.integer(3)])
    }

    @Test func aReferenceThatIsNotAnObjectsURIIsACorruptStore() throws {
        let stack = try Stack()
        let (_, visits) = try stack.saveVisits()
        let connection = try SQLiteConnection(path: stack.url.path, mode: .readWrite)
        try connection.execute(script: "UPDATE ZVISIT SET ZCITY = 'not a uri' WHERE Z_PK = 1")
        let error = #expect(throws: StoreError.self) { try stack.sqlite.snapshot(for: visits[0]) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("'not a uri'") == true)
    }

    /// A file made before Strata kept references across stores has no reference tables:
    /// opening it for writing adds them.
    @Test func openingAFileWithoutItsReferenceTablesAddsThem() throws {
        let stack = try Stack()
        try stack.coordinator.remove(stack.sqlite)
        let connection = try SQLiteConnection(path: stack.url.path, mode: .readWrite)
        try connection.execute(script: "DROP TABLE Z_1SIGHTS")
        try stack.addSQLiteStore()
        let (cities, visits) = try stack.saveVisits()
        #expect(try stack.sqlite.relatedObjectIDs(of: visits[0], relationship: "sights") == [cities[2], cities[0]])
    }

    /// A lightweight migration in place copies the URIs and the reference rows as they are.
    @Test func aMigrationInPlaceKeepsTheReferences() throws {
        let stack = try Stack()
        let (cities, visits) = try stack.saveVisits()
        try stack.coordinator.remove(stack.sqlite)
        let next = CitiesAndVisits.makeModel(visitsRated: true)
        let log = CapturedLog()
        try MigrationPlan(models: [CitiesAndVisits.model, next]).migrateStore(
            at: stack.url, type: .sqlite, configuration: "Diary", to: next, logger: log.logger())
        #expect(log.lines("Store migrated in place").count == 1)
        let store = try SQLiteStoreFile.open(StoreOpenRequest(model: next, configurationName: "Diary", url: stack.url))
        #expect(try store.snapshot(for: visits[0])?.values["city"] == .objectID(cities[0]))
        #expect(try store.relatedObjectIDs(of: visits[0], relationship: "sights") == [cities[2], cities[0]])
    }
}
