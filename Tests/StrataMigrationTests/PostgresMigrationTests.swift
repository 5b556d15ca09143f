import Foundation
import Strata
import StrataPostgresTesting
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// Migrations of PostgreSQL stores: a migration writes its copy in a schema beside the store's
/// and swaps it in with `replace`, one transaction that copies a store within its database;
/// a migration that fails leaves the store as it was and no schema behind.
@Suite struct PostgresMigrationTests {
    private static func newURL(_ name: String) throws -> URL {
        try PostgresTestServer.shared.get().storeURL(schema: PostgresTestServer.uniqueSchema(name))
    }

    /// A connection to the test server's database.
    private static func connection() throws -> PostgresConnection {
        let location = try PostgresLocation(url: try newURL("connection"))
        return try PostgresConnection(conninfo: location.conninfo, serverName: location.displayName)
    }

    /// The schemas on the server whose names start with `schema`, other than `schema` itself.
    private static func schemas(beside url: URL) throws -> [String] {
        let schema = try PostgresLocation(url: url).schema
        let rows = try connection().execute(
            "SELECT nspname::text FROM pg_namespace WHERE starts_with(nspname, $1) AND nspname <> $1",
            [.text(schema)])
        return (0..<rows.rowCount).map { String(decoding: rows.bytes($0, 0) ?? [], as: UTF8.self) }
    }

    /// The names of the indexes in the schema of the store at `url`.
    private static func indexNames(at url: URL) throws -> Set<String> {
        try PostgresStoreDatabase.indexNames(in: try PostgresLocation(url: url), on: try connection())
    }

    @Test func anInferredMigrationInPlaceSwapsInACopyAndKeepsTheIdentifier() throws {
        let url = try Self.newURL("migrate")
        try LibraryVersions.writeVersion1(.postgres, at: url)
        let identifier = try #require(try StoreType.postgres.metadata(ofFileAt: url)).storeIdentifier
        let (version1, version2) = (LibraryVersions.model(1), LibraryVersions.model(2))
        try MigrationManager(sourceModel: version1, destinationModel: version2).migrateStore(
            at: url, type: .postgres, mapping: try .inferred(from: version1, to: version2))
        #expect(
            try LibraryVersions.summary(of: url, type: .postgres, model: version2) == LibraryVersions.migratedSummary)
        #expect(try StoreType.postgres.metadata(ofFileAt: url)?.storeIdentifier == identifier)
        #expect(try Self.schemas(beside: url).isEmpty, "No migration schema is left.")
    }

    @Test func addingAStoreMigratesItByTheCoordinatorsPlanThroughEachStep() throws {
        let url = try Self.newURL("automatic")
        try LibraryVersions.writeVersion1(.postgres, at: url)
        let coordinator = try PersistentStoreCoordinator(model: LibraryVersions.model(3), storeTypes: [.postgres])
        coordinator.migrationPlan = MigrationPlan(models: [1, 2].map(LibraryVersions.model))
        try coordinator.addStore(.postgres(at: url))
        #expect(try LibraryVersions.summary(of: coordinator) == LibraryVersions.version3Summary)
        #expect(try Self.schemas(beside: url).isEmpty)
    }

    @Test func aFailingMigrationLeavesTheStoreAsItWasAndNoSchemaBeside() throws {
        let url = try Self.newURL("failing")
        try LibraryVersions.writeVersion1(.postgres, at: url)
        let before = try LibraryVersions.summary(of: url, type: .postgres, model: LibraryVersions.model(1))
        let (version1, version4) = (LibraryVersions.model(1), LibraryVersions.model(4))
        let error = #expect(throws: MigrationError.self) {
            try MigrationManager(sourceModel: version1, destinationModel: version4).migrateStore(
                at: url, type: .postgres, mapping: try .inferred(from: version1, to: version4))
        }
        #expect(error?.code == .invalidValue)
        #expect(try LibraryVersions.summary(of: url, type: .postgres, model: version1) == before)
        #expect(try Self.schemas(beside: url).isEmpty)
    }

    @Test func replacingCopiesTheStoreWithItsIndexesAndKeysAndLeavesTheSource() throws {
        let (source, destination) = (try Self.newURL("source"), try Self.newURL("destination"))
        try LibraryVersions.writeVersion1(.postgres, at: source)
        try LibraryVersions.writeVersion1(.postgres, at: destination)
        let coordinator = try PersistentStoreCoordinator(model: LibraryVersions.model(1), storeTypes: [.postgres])
        try coordinator.replaceStore(type: StoreType.postgres.name, at: destination, withStoreFrom: source)

        let version1 = LibraryVersions.model(1)
        let sourceSummary = try LibraryVersions.summary(of: source, type: .postgres, model: version1)
        #expect(sourceSummary.count == 5)
        #expect(try LibraryVersions.summary(of: destination, type: .postgres, model: version1) == sourceSummary)
        let identifiers = try [source, destination].map {
            try StoreType.postgres.metadata(ofFileAt: $0)?.storeIdentifier
        }
        #expect(identifiers[0] != nil && identifiers[0] == identifiers[1])
        #expect(try Self.indexNames(at: destination) == Self.indexNames(at: source))

        // The copy's key sequence is past its rows: a new object gets a key of its own.
        let store = try coordinator.addStore(.postgres(at: destination))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let carl = try context.insertNewObject(forEntityName: "Author")
            try carl.setValue("Carl", forKey: "name")
            try context.save()
        }
        try coordinator.remove(store)
        #expect(try LibraryVersions.summary(of: destination, type: .postgres, model: version1).count == 6)
        #expect(try LibraryVersions.summary(of: source, type: .postgres, model: version1) == sourceSummary)
    }

    @Test func aSourceRecordingAModelThatCannotBeReadIsCorruptAndTheDestinationStays() throws {
        let (source, destination) = (try Self.newURL("damaged"), try Self.newURL("kept"))
        try LibraryVersions.writeVersion1(.postgres, at: source)
        try LibraryVersions.writeVersion1(.postgres, at: destination)
        var damaged = try #require(try StoreType.postgres.metadata(ofFileAt: source))
        damaged.modelJSON = Data("{\"entities\": 7}".utf8)
        try PostgresStoreDatabase.withLockedConnection(to: source) { location, connection in
            try PostgresStoreDatabase.writeMetadata(damaged, in: location, on: connection)
        }
        let before = try LibraryVersions.summary(of: destination, type: .postgres, model: LibraryVersions.model(1))
        let coordinator = try PersistentStoreCoordinator(model: LibraryVersions.model(1), storeTypes: [.postgres])
        let error = #expect(throws: StoreError.self) {
            try coordinator.replaceStore(type: StoreType.postgres.name, at: destination, withStoreFrom: source)
        }
        #expect(error?.code == .corrupt)
        #expect(error?.message.contains("records a model that cannot be read") == true)
        #expect(
            try LibraryVersions.summary(of: destination, type: .postgres, model: LibraryVersions.model(1)) == before)
    }

    @Test func replacingAcrossDatabasesOrFromNothingIsATypedError() throws {
        let source = try Self.newURL("nothing")
        let coordinator = try PersistentStoreCoordinator(model: LibraryVersions.model(1), storeTypes: [.postgres])
        let missing = #expect(throws: StoreError.self) {
            try coordinator.replaceStore(
                type: StoreType.postgres.name, at: try Self.newURL("target"), withStoreFrom: source)
        }
        #expect(missing?.code == .unknownObject)
        var components = try #require(URLComponents(url: source, resolvingAgainstBaseURL: false))
        components.path = "/another_database"
        let elsewhere = try #require(components.url)
        let across = #expect(throws: StoreError.self) {
            try coordinator.replaceStore(type: StoreType.postgres.name, at: elsewhere, withStoreFrom: source)
        }
        #expect(across?.code == .unsupported)
        #expect(across?.message.contains("within one database") == true)
    }
}
