import Foundation
import Strata

extension StoreType {
    /// Strata's PostgreSQL store type: a store in a schema of a PostgreSQL database, named by a
    /// URL such as `postgresql://app@db.example.com:5432/app?schema=inventory` (docs/POSTGRES.md).
    ///
    /// Its settings (`StoreOptions.settings`): `maxConnections`, the most connections one
    /// store opens at once (4); `slowStatementThreshold`, in milliseconds, how long a statement
    /// (or a pipeline of them) takes before it is logged as slow (500); `maximumGenerations`,
    /// how many query generations may be open at once, each on a connection of its own (8);
    /// `maximumGenerationAge`, in milliseconds, how long one may hold its transaction (15
    /// minutes). Reading and writing metadata and destroying a store connect
    /// without opening it; destroying drops the store's tables, and its schema when nothing
    /// else is left in it. Replacing copies a store into another schema of the same database
    /// in one transaction, and a migration writes its copy in a schema of its own beside the
    /// store's (`<schema>.migrating-<id>`), so that every migration works on PostgreSQL stores.
    /// A lightweight migration changes the store where it is instead, mostly by `ALTER TABLE`,
    /// in one transaction: objects keep their IDs, and tables are not rewritten where columns
    /// only come, go or change names.
    public static let postgres = StoreType(
        name: PostgresStore.storeTypeName,
        open: { try PostgresStore.open($0) },
        readMetadata: { url in
            try PostgresStoreDatabase.withLockedConnection(to: url) { location, connection in
                guard try PostgresStoreDatabase.storeExists(in: location, on: connection) else { return nil }
                return try PostgresStoreDatabase.readMetadata(in: location, on: connection).metadata
            }
        },
        writeMetadata: { metadata, url in
            try PostgresStoreDatabase.withLockedConnection(to: url) { location, connection in
                guard try PostgresStoreDatabase.storeExists(in: location, on: connection) else {
                    throw StoreError(
                        code: .unknownObject,
                        message: "There is no PostgreSQL store at \(location.displayName) to write metadata to.")
                }
                try PostgresStoreDatabase.writeMetadata(metadata, in: location, on: connection)
            }
        },
        destroy: { url in
            try PostgresStoreDatabase.withLockedConnection(to: url) { try PostgresStoreDatabase.destroy($0, on: $1) }
        },
        replace: { destination, source in try PostgresStoreDatabase.replace(destination, withStoreAt: source) },
        describeFormat: { url in
            try PostgresStoreDatabase.withLockedConnection(to: url) { location, connection in
                let (format, tables, _) = try PostgresStoreDatabase.readMetadata(in: location, on: connection)
                return
                    "Strata's PostgreSQL layout version \(format), \(tables.count) tables in schema '\(location.schema)'"
            }
        },
        migrateInPlace: { try PostgresInPlaceMigration.migrate($0) },
        temporaryURL: { url in PostgresLocation.temporaryURL(beside: url) })
}

extension PersistentStoreDescription {
    /// A description of a PostgreSQL store at `url` (`postgresql://user@host:port/database?schema=name`)
    /// holding `configuration`.
    public static func postgres(at url: URL, configuration: String? = nil) -> PersistentStoreDescription {
        PersistentStoreDescription(storeType: .postgres, url: url, configuration: configuration)
    }
}
