import Foundation
import Strata

extension PostgresStoreDatabase {
    /// Replaces the store at `destinationURL` (making it when there is none) with a copy of the
    /// store at `sourceURL`, in one transaction of a database holding both: the destination's
    /// tables are dropped and the source's copied under the same names, with the indexes,
    /// constraints, sequence, history and metadata the source's recorded model lays out.
    /// PostgreSQL's DDL is transactional, so other sessions see the old store or the new one,
    /// never a mix. The source is left as it was.
    ///
    /// - Throws: ``StoreError`` with code `unsupported` when the two are in different
    ///   databases, or the source records no model or tables other than its model lays out;
    ///   `corrupt` when its recorded model cannot be read; `unknownObject` when there is no
    ///   store at `sourceURL`.
    static func replace(_ destinationURL: URL, withStoreAt sourceURL: URL) throws {
        let destination = try PostgresLocation(url: destinationURL)
        let source = try PostgresLocation(url: sourceURL)
        guard destination.database == source.database else {
            throw StoreError(
                code: .unsupported,
                message: "Cannot replace the PostgreSQL store at \(destination.displayName) with the one at "
                    + "\(source.displayName): a store is copied within one database.")
        }
        guard destination.schema != source.schema else { return }
        do {
            let connection = try PostgresConnection(
                conninfo: destination.conninfo, serverName: destination.displayName)
            // One snapshot for every table copied: saves into the source go on meanwhile, and
            // the copy must not mix rows from before and after one of them.
            try connection.transaction(isolation: "REPEATABLE READ") {
                for schema in [destination.schema, source.schema].sorted() { try lockSchema(schema, on: connection) }
                try copy(source, to: destination, on: connection)
            }
        } catch {
            throw PostgresConnectionPool.storeError(error, location: destination)
        }
    }

    private static func copy(
        _ source: PostgresLocation, to destination: PostgresLocation, on connection: PostgresConnection
    ) throws {
        let name = "The PostgreSQL store at \(source.displayName)"
        guard try storeExists(in: source, on: connection) else {
            throw StoreError(code: .unknownObject, message: "There is no PostgreSQL store at \(source.displayName).")
        }
        let (_, tables, metadata) = try readMetadata(in: source, on: connection)
        guard let json = metadata.modelJSON else {
            throw StoreError(code: .unsupported, message: "\(name) records no model, so it cannot be copied.")
        }
        let model: ManagedObjectModel
        do {
            model = try ManagedObjectModel(jsonData: json)
            try model.freeze()
        } catch {
            throw StoreError(
                code: .corrupt, message: "\(name) records a model that cannot be read: \(error)", underlying: error)
        }
        let entityNames = Set(metadata.versionHashes.keys)
        let from = PostgresLayout(model: model.schema, entityNames: entityNames, schemaName: source.schema)
        guard Set(from.tableNames) == Set(tables) else {
            throw StoreError(
                code: .unsupported,
                message: "\(name) has tables other than its recorded model lays out, so it cannot be copied.")
        }
        let to = PostgresLayout(model: model.schema, entityNames: entityNames, schemaName: destination.schema)
        try destroy(destination, on: connection)
        try create(to, model: model.schema, metadata: metadata, on: connection)
        func copyRows(of table: String, columns: [String]) throws {
            let list = columns.map(PostgresIdentifier.quoted).joined(separator: ", ")
            try connection.execute(
                "INSERT INTO \(to.qualified(table)) (\(list)) SELECT \(list) FROM \(from.qualified(table))")
        }
        for table in to.entityTables { try copyRows(of: table.name, columns: table.columns.map(\.name)) }
        for table in to.joinTables {
            try copyRows(of: table.name, columns: ["source", "destination", "source_order", "destination_order"])
        }
        for table in to.referenceTables { try copyRows(of: table.name, columns: ["owner", "reference", "position"]) }
        try connection.execute(
            "SELECT setval($1::regclass, last_value, is_called) FROM \(from.qualified(PostgresLayout.keySequence))",
            [.text(to.qualified(PostgresLayout.keySequence))])
        let sourceHistory = PostgresHistoryTables(schemaName: source.schema)
        guard try sourceHistory.exist(on: connection) else { return }
        let history = PostgresHistoryTables(schemaName: destination.schema)
        try history.create(on: connection)
        try connection.execute("DELETE FROM \(history.counters)")
        try connection.execute("INSERT INTO \(history.counters) SELECT * FROM \(sourceHistory.counters)")
        try connection.execute("INSERT INTO \(history.transactions) SELECT * FROM \(sourceHistory.transactions)")
    }
}
