import Foundation
import Strata

extension StoreType {
    /// Strata's SQLite store type, in Core Data's SQLite layout, reading its options from
    /// `StoreOptions/settings` (`poolSize`, `busyTimeout` in milliseconds). Destroying a
    /// store empties it through SQLite before removing its file and its `-wal` and `-shm`
    /// files; replacing one copies the source with SQLite's backup API; a file is recognised by
    /// SQLite's 16-byte header. A lightweight migration changes the file in place, as Core
    /// Data's does: only the tables that change are rebuilt, in one transaction, and objects
    /// keep their IDs.
    public static let sqlite = sqliteType(nil)

    /// The SQLite store type opening stores with `options`.
    ///
    /// ```swift
    /// try coordinator.addStore(.sqlite(at: url, options: SQLiteStoreOptions(poolSize: 4)))
    /// ```
    /// Options that set nothing give ``sqlite`` itself.
    public static func sqlite(_ options: SQLiteStoreOptions) -> StoreType {
        options == SQLiteStoreOptions() ? sqlite : sqliteType(options)
    }

    private static func sqliteType(_ options: SQLiteStoreOptions?) -> StoreType {
        StoreType(
            name: SQLiteStore.storeTypeName, variant: options,
            open: { try SQLiteStoreFile.open($0, options: options) },
            readMetadata: { try SQLiteStoreFile.readMetadata(at: $0.path) },
            writeMetadata: { try SQLiteStoreFile.writeMetadata($0, at: $1.path) },
            destroy: { try SQLiteStoreFile.destroy(at: $0.path) },
            replace: { destination, source in try SQLiteStoreFile.replace(destination.path, withStoreAt: source.path) },
            recognize: { $0.starts(with: sqliteHeader) },
            describeFormat: { url in
                let format = try SQLiteStoreFileFormat(ofStoreAt: url)
                return "Core Data's SQLite schema, Z_METADATA version \(format.metadataVersion), "
                    + "version hashes version \(format.versionHashesVersion.map(String.init) ?? "missing"), "
                    + "Core Data framework version \(format.coreDataFrameworkVersion.map(String.init) ?? "missing"); "
                    + "SQLite journal mode \(format.journalMode), tables " + format.tables.joined(separator: ", ")
            },
            migrateInPlace: { request in
                try SQLiteInPlaceMigration.migrate(
                    request, settings: SQLiteStoreSettings(options, settings: StoreOptions(), logger: request.logger))
            })
    }

    /// The first 16 bytes of every SQLite database file.
    private static let sqliteHeader = Array("SQLite format 3\0".utf8)
}

extension PersistentStoreDescription {
    /// A description of an SQLite store at `url` holding `configuration`, opened with `options`.
    ///
    /// ```swift
    /// container.persistentStoreDescriptions = [.sqlite(at: url, options: SQLiteStoreOptions(poolSize: 4))]
    /// ```
    public static func sqlite(
        at url: URL, configuration: String? = nil, options: SQLiteStoreOptions = SQLiteStoreOptions()
    ) -> PersistentStoreDescription {
        PersistentStoreDescription(storeType: .sqlite(options), url: url, configuration: configuration)
    }
}
