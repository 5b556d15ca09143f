import CStrataSQLite
import Foundation
import Strata
import Testing

@testable import StrataSQLite

/// The SQLite layout Strata computes for a model is the one Core Data made for the same model
/// in every Apple-made fixture store: entity numbers, tables, columns with their declared
/// types, and indexes. (Core Data's persistent-history tables, `A…`, are not part of a model.)
@Suite struct SQLiteSchemaFixtureTests {
    /// What a store file holds, read with SQLite.
    struct StoredLayout {
        var entities: [Int64: (name: String, superentity: Int64)] = [:]
        var columns: [String: [String: String]] = [:]
        var indexes: [String: String] = [:]
        var tableStatements: Set<String> = []
        /// Every trigger's statement, by name.
        var triggers: [String: String] = [:]

        init(storeAt url: URL) throws {
            var handle: OpaquePointer?
            guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else {
                throw CocoaError(.fileReadCorruptFile)
            }
            defer { sqlite3_close(handle) }
            func rows(_ sql: String) -> [[String]] {
                var statement: OpaquePointer?
                sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
                defer { sqlite3_finalize(statement) }
                var result: [[String]] = []
                while sqlite3_step(statement) == SQLITE_ROW {
                    result.append(
                        (0..<sqlite3_column_count(statement)).map { column in
                            sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
                        })
                }
                return result
            }
            for row in rows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY WHERE Z_ENT < 16000") {
                entities[Int64(row[0])!] = (row[1], Int64(row[2])!)
            }
            let tables = rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%'").map { $0[0] }
            for table in tables where !["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"].contains(table) {
                columns[table] = Dictionary(
                    uniqueKeysWithValues: rows("PRAGMA table_info(\(table))").map { ($0[1], $0[2]) })
            }
            tableStatements = Set(rows("SELECT sql FROM sqlite_master WHERE type = 'table'").map { $0[0] })
            for row in rows("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'") { triggers[row[0]] = row[1] }
            let history = ["ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING"]
            for row in rows("SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
            where !history.contains(row[1]) {
                indexes[row[0]] = row[2]
            }
        }
    }

    @Test(arguments: VersionHashFixtureTests.cases)
    func theLayoutMatchesCoreDatas(_ storeCase: VersionHashFixtureTests.StoreCase) throws {
        let directory = try TemporaryDirectory()
        let stored = try StoredLayout(storeAt: directory.copyStore(storeCase.store))
        let model = try storeCase.loadModel()
        try model.freeze()
        let layout = SQLiteSchema(schema: model.schema, entityNames: Set(model.schema.entitiesByName.keys))

        // A lightweight migration keeps a renamed entity's old name in Z_PRIMARYKEY
        // (SampleModel_V2: `ExpensiveSportCar`, renamed `LuxuryCar`), so names are matched
        // through renaming identifiers too.
        func modelName(_ storedName: String) -> String {
            model.schema.entities.first { $0.description.renamingIdentifier == storedName }?.name ?? storedName
        }
        let numbers = Dictionary(uniqueKeysWithValues: stored.entities.map { (modelName($0.value.name), $0.key) })
        #expect(layout.entityNumbers == numbers, "entity numbers")
        for entity in stored.entities.values {
            let name = modelName(entity.name)
            let superentity = layout.superentities[name].flatMap { layout.entityNumbers[$0] } ?? 0
            #expect(superentity == entity.superentity, "the superentity of \(name)")
        }

        var columns: [String: [String: String]] = [:]
        for table in layout.entityTables {
            columns[table.name] = Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name, $0.type.rawValue) })
        }
        #expect(columns == stored.columns, "tables and their columns")

        // Within a type group, columns follow the order of the properties in the model. The
        // models written out in code do not keep Apple's order, so only models read from
        // Xcode files are held to the exact statement.
        if case .xcode = storeCase.model {
            let tableStatements = Set(layout.createStatements.filter { $0.hasPrefix("CREATE TABLE") })
            #expect(tableStatements.subtracting(stored.tableStatements).isEmpty, "CREATE TABLE statements")
        }
        let statements = Set(layout.createStatements.filter { $0.contains(" INDEX ") })
        #expect(statements == Set(stored.indexes.values), "indexes")
    }

    /// A store Strata creates with a fixture's model is laid out like the fixture store Core
    /// Data made with that model, table by table, and its metadata holds Core Data's keys with
    /// the same values, key by key.
    @Test(arguments: VersionHashFixtureTests.cases)
    func aStoreStrataWritesMatchesCoreDatasStore(_ storeCase: VersionHashFixtureTests.StoreCase) throws {
        let directory = try TemporaryDirectory()
        let fixture = try directory.copyStore(storeCase.store)
        let written = directory.url.appendingPathComponent("Strata.sqlite")
        let model = try storeCase.loadModel()
        do {
            let coordinator = try PersistentStoreCoordinator.fixture(model)
            let store = try coordinator.addStore(type: StoreType.sqlite.name, at: written)
            try coordinator.remove(store)
        }
        let theirs = try StoredLayout(storeAt: fixture)
        let ours = try StoredLayout(storeAt: written)

        // Core Data keeps a renamed entity's old name in Z_PRIMARYKEY; Strata writes the new one.
        let renamed = Dictionary(
            model.schema.entities.compactMap { entity in
                entity.description.renamingIdentifier.map { ($0, entity.name) }
            }, uniquingKeysWith: { first, _ in first })
        for (number, entity) in theirs.entities {
            let name = renamed[entity.name] ?? entity.name
            #expect(ours.entities[number]?.name == name, "Z_PRIMARYKEY row \(number)")
            #expect(ours.entities[number]?.superentity == entity.superentity, "the superentity of \(name)")
        }
        #expect(ours.entities.count == theirs.entities.count, "Z_PRIMARYKEY rows")
        for (table, columns) in theirs.columns {
            #expect(ours.columns[table] == columns, "the columns of \(table)")
        }
        #expect(Set(ours.columns.keys) == Set(theirs.columns.keys), "tables")
        #expect(Set(ours.indexes.values) == Set(theirs.indexes.values), "indexes")
        #expect(ours.triggers == theirs.triggers, "derived-attribute triggers")
        for table in ["Z_PRIMARYKEY", "Z_METADATA"] {
            let statement = { (layout: StoredLayout) in layout.tableStatements.first { $0.contains("TABLE \(table) ") }
            }
            #expect(statement(ours) != nil && statement(ours) == statement(theirs), "CREATE TABLE \(table)")
        }

        let theirMetadata = try FixtureStoreMetadata(storeAt: fixture)
        let ourMetadata = try FixtureStoreMetadata(storeAt: written)
        #expect(ourMetadata.entityVersionHashes == theirMetadata.entityVersionHashes, "NSStoreModelVersionHashes")
        #expect(ourMetadata.versionIdentifiers == theirMetadata.versionIdentifiers, "NSStoreModelVersionIdentifiers")
        for key in ["NSStoreType", "_NSAutoVacuumLevel", "NSStoreModelVersionHashesDigest"] {
            if let value = theirMetadata.string(key) {
                #expect(ourMetadata.string(key) == value, "\(key)")
            }
        }
        #expect(
            ourMetadata.values["NSStoreModelVersionHashesVersion"] as? Int
                == theirMetadata.values["NSStoreModelVersionHashesVersion"] as? Int,
            "NSStoreModelVersionHashesVersion")
        #expect(ourMetadata.values["NSPersistenceFrameworkVersion"] is Int, "NSPersistenceFrameworkVersion")
        let missing = Set(theirMetadata.values.keys).subtracting(ourMetadata.values.keys)
        #expect(missing.isEmpty, "Core Data's metadata keys")
    }
}
