import CStrataSQLite
import Foundation
import Strata
import Testing

@testable import StrataSQLite

/// Every Apple-made store in the fixtures opens in Strata's SQLite store with the model it was
/// made with, and every row reads back with the values and relationships that SQLite's own C
/// API finds in the file. The expected values are decoded here, by Core Data's rules, without
/// Strata's codec: dates as seconds since 2001, UUIDs as 16 bytes, Booleans as integers.
@Suite struct SQLiteStoreFixtureInteropTests {
    /// A column's value as SQLite holds it.
    enum RawValue: Equatable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob(Data)

        var number: Double? {
            switch self {
            case .integer(let value): Double(value)
            case .real(let value): value
            default: nil
            }
        }
    }

    /// One row of an entity table: its concrete entity and its columns.
    struct RawRow {
        var entity: String
        var columns: [String: RawValue]
    }

    /// Every row of every entity table of a store file, by table and primary key, read with
    /// the C API.
    struct RawStore {
        var tables: [String: [Int64: RawRow]] = [:]

        init(fileAt url: URL, entityName: (String) -> String) throws {
            var handle: OpaquePointer?
            guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else {
                throw CocoaError(.fileReadCorruptFile)
            }
            defer { sqlite3_close(handle) }
            func rows(_ sql: String) -> [[String: RawValue]] {
                var statement: OpaquePointer?
                sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
                defer { sqlite3_finalize(statement) }
                var result: [[String: RawValue]] = []
                while sqlite3_step(statement) == SQLITE_ROW {
                    var row: [String: RawValue] = [:]
                    for column in 0..<sqlite3_column_count(statement) {
                        row[String(cString: sqlite3_column_name(statement, column))] = Self.value(statement, column)
                    }
                    result.append(row)
                }
                return result
            }
            var names: [Int64: String] = [:]
            for row in rows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000") {
                if case .integer(let number) = row["Z_ENT"], case .text(let name) = row["Z_NAME"] {
                    names[number] = entityName(name)
                }
            }
            let entityTables = rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%'")
                .compactMap { row -> String? in if case .text(let name) = row["name"] { name } else { nil } }
                .filter { !$0.hasPrefix("Z_") }
            for table in entityTables {
                var byKey: [Int64: RawRow] = [:]
                for row in rows("SELECT * FROM \(table)") {
                    guard case .integer(let key) = row["Z_PK"], case .integer(let entity) = row["Z_ENT"] else {
                        Issue.record("A row of \(table) has no Z_PK or Z_ENT")
                        continue
                    }
                    byKey[key] = RawRow(entity: names[entity] ?? "entity \(entity)", columns: row)
                }
                tables[table] = byKey
            }
        }

        private static func value(_ statement: OpaquePointer?, _ column: Int32) -> RawValue {
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
            case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
            case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(statement, column)))
            case SQLITE_BLOB:
                .blob(
                    Data(
                        bytes: sqlite3_column_blob(statement, column),
                        count: Int(sqlite3_column_bytes(statement, column))))
            default: .null
            }
        }

        /// The row with primary key `key` in the table of `entity`'s hierarchy.
        func row(_ key: Int64, of entity: EntitySchema) -> RawRow? {
            tables[Self.table(of: entity)]?[key]
        }

        /// Core Data's table name for `entity`: `Z` and its root entity's name, upper-cased.
        static func table(of entity: EntitySchema) -> String { "Z" + entity.rootEntityName.uppercased() }
    }

    /// The value Core Data means by `raw` in a column of `type`, or `nil` when the pair makes
    /// no sense.
    static func expectedValue(_ raw: RawValue, _ type: AttributeType) -> AttributeValue? {
        switch (type, raw) {
        case (_, .null): .null
        case (.integer16, .integer(let value)): .integer16(Int16(value))
        case (.integer32, .integer(let value)): .integer32(Int32(value))
        case (.integer64, .integer(let value)): .integer64(value)
        case (.boolean, .integer(let value)): .boolean(value != 0)
        case (.double, _): raw.number.map { .double($0) }
        case (.float, _): raw.number.map { .float(Float($0)) }
        case (.date, _): raw.number.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case (.string, .text(let text)): .string(text)
        case (.uri, .text(let text)): URL(string: text).map { .uri($0) }
        case (.binary, .blob(let data)), (.transformable, .blob(let data)): .binary(data)
        case (.uuid, .blob(let data)) where data.count == 16:
            .uuid(data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        default: nil
        }
    }

    /// Whether Strata read `value` for a column that holds `raw`, of an attribute of `type`.
    static func matches(_ value: AttributeValue?, _ raw: RawValue, _ type: AttributeType) -> Bool {
        if type == .decimal, case .decimal(let decimal) = value, let number = raw.number {
            // Core Data keeps decimals as REAL: the decimal read must name the same double.
            return Double(decimal.description) == number
        }
        return value == expectedValue(raw, type)
    }

    @Test(arguments: VersionHashFixtureTests.cases)
    func everyRowReadsBackWithItsValuesAndRelationships(_ storeCase: VersionHashFixtureTests.StoreCase) throws {
        let directory = try TemporaryDirectory()
        let url = try directory.copyStore(storeCase.store)
        let model = try storeCase.loadModel()
        try model.freeze()
        let schema = model.schema
        func modelName(_ storedName: String) -> String {
            schema.entities.first { $0.description.renamingIdentifier == storedName }?.name ?? storedName
        }
        let raw = try RawStore(fileAt: url, entityName: modelName)

        let coordinator = try PersistentStoreCoordinator.fixture(model)
        let store = try coordinator.addStore(type: StoreType.sqlite.name, at: url)
        var readRows = 0
        for root in schema.entities where root.superentityNames.isEmpty {
            guard case .snapshots(let snapshots) = try store.execute(StoreFetchRequest(entityName: root.name)) else {
                Issue.record("\(root.name): no snapshots")
                continue
            }
            let rows = raw.tables[RawStore.table(of: root)] ?? [:]
            let keys = snapshots.compactMap { snapshot -> Int64? in
                if case .integer(let key) = snapshot.objectID.reference { key } else { nil }
            }
            #expect(Set(keys) == Set(rows.keys), "\(storeCase): the rows of \(root.name)")
            for snapshot in snapshots {
                guard case .integer(let key) = snapshot.objectID.reference, let row = rows[key],
                    let entity = schema.entitiesByName[snapshot.objectID.entityName]
                else { continue }
                #expect(entity.name == row.entity, "\(storeCase): the entity of \(root.name) \(key)")
                try compare(snapshot, with: row, of: entity, in: raw, schema: schema, store: store)
                readRows += 1
            }
        }
        #expect(readRows == raw.tables.values.map(\.count).reduce(0, +))
        #expect(readRows > 0, "\(storeCase) holds rows")
    }

    /// Checks the attributes, to-one and to-many relationships of one object against its row.
    private func compare(
        _ snapshot: Snapshot, with row: RawRow, of entity: EntitySchema, in raw: RawStore, schema: ModelSchema,
        store: any IncrementalStore
    ) throws {
        let place = "\(entity.name) \(snapshot.objectID.reference)"
        for attribute in entity.attributes where !attribute.isTransient {
            let column = row.columns["Z" + attribute.name.uppercased()] ?? .null
            #expect(
                Self.matches(snapshot.values[attribute.name], column, attribute.type),
                "\(place).\(attribute.name): read \(String(describing: snapshot.values[attribute.name])), stored \(column)"
            )
        }
        for relationship in entity.relationships where !relationship.isTransient {
            guard let destination = schema.entitiesByName[relationship.destinationEntityName] else {
                continue
            }
            if !relationship.isToMany {
                let column = row.columns["Z" + relationship.name.uppercased()] ?? .null
                guard case .integer(let key) = column else {
                    #expect(snapshot.values[relationship.name] == .null, "\(place).\(relationship.name) is empty")
                    continue
                }
                let target = raw.row(key, of: destination)
                let expected = ObjectID(
                    storeIdentifier: store.identifier, entityName: target?.entity ?? "?", reference: .integer(key))
                #expect(snapshot.values[relationship.name] == .objectID(expected), "\(place).\(relationship.name)")
                continue
            }
            guard let inverse = relationship.inverseName.flatMap({ destination.relationshipsByName[$0] }),
                !inverse.isToMany
            else {
                Issue.record("\(place).\(relationship.name): no fixture has a many-to-many or one-way to-many")
                continue
            }
            guard case .integer(let owner) = snapshot.objectID.reference else { continue }
            let inverseColumn = "Z" + inverse.name.uppercased()
            let expected = Set(
                (raw.tables[RawStore.table(of: destination)] ?? [:]).filter { _, member in
                    member.columns[inverseColumn] == .integer(owner)
                }.keys)
            let members = try store.relatedObjectIDs(of: snapshot.objectID, relationship: relationship.name)
            let keys = members.compactMap { id -> Int64? in
                if case .integer(let key) = id.reference { key } else { nil }
            }
            #expect(Set(keys) == expected, "\(place).\(relationship.name)")
        }
    }
}
