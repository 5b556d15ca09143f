import Foundation
import Strata

/// Creating, inspecting and removing a store in a PostgreSQL schema, with or without opening it.
///
/// A store is the schema's `_strata_metadata` table (one row: the layout version, the names
/// of the tables the store created, its metadata as JSON), its key sequence, and its tables.
enum PostgresStoreDatabase {
    /// The layout version this build writes and reads.
    static let formatVersion: Int32 = 1

    /// Takes the transaction-scoped lock that serialises creating, opening and removing the
    /// store in `schema`, so that two processes opening a new store at once create it once.
    static func lockSchema(_ schema: String, on connection: PostgresConnection) throws {
        try connection.execute("SELECT pg_advisory_xact_lock(hashtextextended($1, 7))", [.text(schema)])
    }

    /// Whether `location`'s schema holds a store (its metadata table).
    static func storeExists(in location: PostgresLocation, on connection: PostgresConnection) throws -> Bool {
        let metadata = PostgresIdentifier.qualified(location.schema, PostgresLayout.metadataTable)
        let found = try connection.execute("SELECT to_regclass($1) IS NOT NULL", [.text(metadata)])
        return found.value(0, 0) == .boolean(true)
    }

    /// The store's metadata row: layout version, tables and metadata.
    static func readMetadata(in location: PostgresLocation, on connection: PostgresConnection) throws
        -> (format: Int32, tables: [String], metadata: StoreMetadata)
    {
        let table = PostgresIdentifier.qualified(location.schema, PostgresLayout.metadataTable)
        let rows = try connection.execute("SELECT format, tables, metadata FROM \(table) WHERE id = 1")
        let store = "The PostgreSQL store at \(location.displayName)"
        guard rows.rowCount == 1, case .integer(let format)? = rows.value(0, 0), let tables = rows.bytes(0, 1),
            let json = rows.bytes(0, 2)
        else { throw StoreError(code: .corrupt, message: "\(store) has no metadata row.") }
        guard format <= formatVersion else {
            throw StoreError(
                code: .unsupported,
                message: "\(store) has layout version \(format); this build of Strata reads up to \(formatVersion).")
        }
        do {
            let names = try JSONDecoder().decode([String].self, from: Data(tables))
            return (format, names, try JSONDecoder().decode(StoreMetadata.self, from: Data(json)))
        } catch {
            throw StoreError(code: .corrupt, message: "\(store) has unreadable metadata: \(error)", underlying: error)
        }
    }

    /// Replaces the store's metadata.
    static func writeMetadata(
        _ metadata: StoreMetadata, in location: PostgresLocation, on connection: PostgresConnection
    ) throws {
        let table = PostgresIdentifier.qualified(location.schema, PostgresLayout.metadataTable)
        try connection.execute("UPDATE \(table) SET metadata = $1 WHERE id = 1", [.bytes(try encode(metadata))])
    }

    /// The names of the indexes in `location`'s schema.
    static func indexNames(in location: PostgresLocation, on connection: PostgresConnection) throws -> Set<String> {
        let rows = try connection.execute(
            "SELECT indexname::text FROM pg_indexes WHERE schemaname = $1", [.text(location.schema)])
        return Set((0..<rows.rowCount).compactMap { rows.bytes($0, 0).map { String(decoding: $0, as: UTF8.self) } })
    }

    /// Creates the store's tables and metadata row.
    static func create(
        _ layout: PostgresLayout, model: ModelSchema, metadata: StoreMetadata, on connection: PostgresConnection
    ) throws {
        for statement in layout.definitions(model: model) { try connection.execute(statement) }
        let tables = try JSONEncoder().encode(layout.tableNames)
        try connection.execute(
            "INSERT INTO \(layout.qualified(PostgresLayout.metadataTable)) VALUES (1, $1, $2, $3)",
            [.integer(formatVersion), .bytes(Array(tables)), .bytes(try encode(metadata))])
    }

    /// Gives a store made before Strata kept references to other stores' objects what `layout`
    /// keeps them in: its reference tables (listed with the store's tables), and `text` for the
    /// columns of to-ones leading out of the configuration, which were `bigint` and empty (no
    /// such reference could be saved before).
    static func addReferenceStorage(
        of layout: PostgresLayout, in location: PostgresLocation, on connection: PostgresConnection
    ) throws {
        var added: [String] = []
        for table in layout.referenceTables {
            let found = try connection.execute(
                "SELECT to_regclass($1) IS NOT NULL", [.text(layout.qualified(table.name))])
            guard found.value(0, 0) != .boolean(true) else { continue }
            for statement in layout.definitions(of: table) { try connection.execute(statement) }
            added.append(table.name)
        }
        if !added.isEmpty {
            let (_, tables, _) = try readMetadata(in: location, on: connection)
            try connection.execute(
                "UPDATE \(layout.qualified(PostgresLayout.metadataTable)) SET tables = $1 WHERE id = 1",
                [.bytes(Array(try JSONEncoder().encode(tables + added)))])
        }
        for table in layout.entityTables {
            for column in table.columns {
                guard case .reference = column.role else { continue }
                let type = try connection.execute(
                    "SELECT data_type::text FROM information_schema.columns "
                        + "WHERE table_schema = $1 AND table_name = $2 AND column_name = $3",
                    [.text(location.schema), .text(PostgresIdentifier.clipped(table.name)), .text(column.name)])
                guard case .text(let name)? = type.value(0, 0), name != "text" else { continue }
                try connection.execute(
                    "ALTER TABLE \(layout.qualified(table.name)) ALTER COLUMN \(column.quoted) TYPE text "
                        + "USING \(column.quoted)::text")
            }
        }
    }

    /// Drops the store's tables, history and sequence, and its schema when nothing else is left in it.
    static func destroy(_ location: PostgresLocation, on connection: PostgresConnection) throws {
        guard try storeExists(in: location, on: connection) else { return }
        let (_, tables, _) = try readMetadata(in: location, on: connection)
        for table in tables.reversed() {
            try connection.execute(
                "DROP TABLE IF EXISTS \(PostgresIdentifier.qualified(location.schema, table)) CASCADE")
        }
        try PostgresHistoryTables(schemaName: location.schema).drop(on: connection)
        try connection.execute(
            "DROP SEQUENCE IF EXISTS \(PostgresIdentifier.qualified(location.schema, PostgresLayout.keySequence))")
        guard location.schema != "public" else { return }
        let left = try connection.execute(
            "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1",
            [.text(location.schema)])
        if left.int64(0, 0) == 0 {
            try connection.execute("DROP SCHEMA IF EXISTS \(PostgresIdentifier.quoted(location.schema))")
        }
    }

    static func encode(_ metadata: StoreMetadata) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Array(try encoder.encode(metadata))
    }

    /// Runs `body` on a new connection to `location`'s server, in a transaction holding the
    /// schema's lock: what reading and writing a closed store's metadata do.
    static func withLockedConnection<T>(to url: URL, _ body: (PostgresLocation, PostgresConnection) throws -> T) throws
        -> T
    {
        let location = try PostgresLocation(url: url)
        do {
            let connection = try PostgresConnection(conninfo: location.conninfo, serverName: location.displayName)
            return try connection.transaction {
                try lockSchema(location.schema, on: connection)
                return try body(location, connection)
            }
        } catch {
            throw PostgresConnectionPool.storeError(error, location: location)
        }
    }
}
