import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// The PostgreSQL layout of relationships leading to another store's objects
/// (docs/CROSS-STORE-RELATIONSHIPS.md): a to-one keeps the object's URI in a `text` column, a
/// to-many in a reference table, and the store compares them by ID.
@Suite struct PostgresReferencesAcrossStoresTests {
    /// A coordinator with the visits in a PostgreSQL schema of its own and the cities in memory.
    struct Stack {
        let url: URL
        let coordinator: PersistentStoreCoordinator
        var store: any IncrementalStore { coordinator.stores.first { $0.typeName == "PostgreSQL" }! }

        init() throws {
            url = try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema("refs"))
            coordinator = try PersistentStoreCoordinator(
                model: CitiesAndVisits.model, storeTypes: [.postgres])
            try coordinator.addStore(type: "InMemory", configuration: "Atlas")
            try addPostgresStore()
        }

        func addPostgresStore() throws {
            try coordinator.addStore(type: "PostgreSQL", configuration: "Diary", at: url)
        }

        func reopenPostgresStore() throws {
            try coordinator.remove(store)
            try addPostgresStore()
        }

        /// Runs `sql` on a connection of its own to the store's server.
        func execute(_ sql: String) throws -> PostgresResult {
            let location = try PostgresLocation(url: url)
            let connection = try PostgresConnection(conninfo: location.conninfo, serverName: location.displayName)
            return try connection.execute(sql.replacingOccurrences(of: "$SCHEMA", with: "\"\(location.schema)\""))
        }

        /// Saves ``CitiesAndVisits``' objects.
        func saveVisits() throws -> (cities: [ObjectID], visits: [ObjectID]) {
            try CitiesAndVisits.save(in: coordinator)
        }

        /// The notes of the visits the PostgreSQL store itself finds for `format`.
        func notes(_ format: String, _ arguments: [any PredicateArgument] = []) throws -> [String] {
            let request = StoreFetchRequest(
                entityName: "Visit", predicate: try FetchPredicate(format: format, arguments: arguments),
                sortDescriptors: [FetchSortDescriptor("note")])
            guard case .snapshots(let snapshots) = try store.execute(request) else { return [] }
            return snapshots.map { snapshot in
                if case .string(let note)? = snapshot.values["note"] { note } else { "" }
            }
        }
    }

    @Test func aRelationshipLeadingOutGetsATextColumnOrAReferenceTable() throws {
        try CitiesAndVisits.model.freeze()
        let layout = PostgresLayout(model: CitiesAndVisits.model.schema, entityNames: ["Visit"], schemaName: "s")
        let visit = layout.tableOfEntity["Visit"]
        #expect(visit?.column(.reference(entity: "Visit", name: "city"))?.type == .text)
        #expect(layout.joinTables.isEmpty)
        #expect(
            layout.referenceTables == [
                .init(name: "Visit.sights.references", entity: "Visit", relationship: "sights", isOrdered: true)
            ])
        #expect(layout.tableNames.contains("Visit.sights.references"))
        let whole = PostgresLayout(
            model: CitiesAndVisits.model.schema, entityNames: ["City", "Visit"], schemaName: "s")
        #expect(whole.referenceTables.isEmpty)
        #expect(whole.tableOfEntity["Visit"]?.column(.toOne(entity: "Visit", name: "city"))?.type == .bigint)
    }

    @Test func referencesReadBackInOrderAfterReopeningAndTheTablesHoldURIs() throws {
        let stack = try Stack()
        let (cities, visits) = try stack.saveVisits()
        try stack.reopenPostgresStore()
        #expect(try stack.store.snapshot(for: visits[0])?.values["city"] == .objectID(cities[0]))
        #expect(try stack.store.relatedObjectIDs(of: visits[0], relationship: "sights") == [cities[2], cities[0]])
        #expect(try stack.store.relatedObjectIDs(of: visits[1], relationship: "sights") == [])
        let stored = try stack.execute("SELECT city FROM $SCHEMA.\"Visit\" ORDER BY _pk")
        #expect(
            (0..<stored.rowCount).map { stored.value($0, 0) } == [
                .text(cities[0].uriString), .text(cities[1].uriString), .null,
            ])
        let rows = try stack.execute("SELECT count(*) FROM $SCHEMA.\"Visit.sights.references\"")
        #expect(rows.int64(0, 0) == 3)
    }

    @Test func comparisonsByIDAnswerAsTheEvaluator() throws {
        let stack = try Stack()
        let (cities, _) = try stack.saveVisits()
        #expect(try stack.notes("city == %@", [cities[0]]) == ["a"])
        #expect(try stack.notes("city != %@", [cities[0]]) == ["b", "none"])
        #expect(try stack.notes("city == nil") == ["none"])
        #expect(try stack.notes("city IN %@", [[cities[1], cities[2]]]) == ["b"])
        #expect(try stack.notes("ANY sights IN %@", [[cities[1], cities[2]]]) == ["a", "none"])
        #expect(try stack.notes("%@ IN sights", [cities[0]]) == ["a"])
        #expect(try stack.notes("sights.@count == 2") == ["a"])
    }

    @Test func deletingAVisitRemovesItsReferenceRows() throws {
        let stack = try Stack()
        let (_, visits) = try stack.saveVisits()
        let context = ManagedObjectContext(coordinator: stack.coordinator)
        try context.performAndWait {
            try context.delete(try context.existingObject(with: visits[0]))
            try context.save()
        }
        let owners = try stack.execute("SELECT DISTINCT owner FROM $SCHEMA.\"Visit.sights.references\"")
        guard case .integer(let remaining) = visits[2].reference else { return }
        #expect((0..<owners.rowCount).map { owners.int64($0, 0) } == [remaining])
    }

    @Test func aReferenceThatIsNotAnObjectsURIIsACorruptStore() throws {
        let stack = try Stack()
        let (_, visits) = try stack.saveVisits()
        _ = try stack.execute("UPDATE $SCHEMA.\"Visit\" SET city = 'not a uri' WHERE note = '\\x61'::bytea")
        let error = #expect(throws: StoreError.self) { try stack.store.snapshot(for: visits[0]) }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("'not a uri'") == true)
    }

    /// A store made before Strata kept references across stores had a `bigint` column for the
    /// to-one and no reference table: opening it for writing gives it both.
    @Test func openingAStoreWithoutReferenceStorageAddsIt() throws {
        let stack = try Stack()
        try stack.coordinator.remove(stack.store)
        _ = try stack.execute("DROP TABLE $SCHEMA.\"Visit.sights.references\"")
        _ = try stack.execute("ALTER TABLE $SCHEMA.\"Visit\" ALTER COLUMN city TYPE bigint USING NULL")
        try stack.addPostgresStore()
        let (cities, visits) = try stack.saveVisits()
        #expect(try stack.store.snapshot(for: visits[0])?.values["city"] == .objectID(cities[0]))
        #expect(try stack.store.relatedObjectIDs(of: visits[0], relationship: "sights") == [cities[2], cities[0]])
    }
}
