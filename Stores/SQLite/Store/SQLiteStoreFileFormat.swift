import Foundation
import Strata

/// What an SQLite store file records about its format, read without opening the store.
public struct SQLiteStoreFileFormat: Sendable, Hashable {
    /// `Z_VERSION` of the metadata row in `Z_METADATA`: 1 in every store Core Data and Strata write.
    public var metadataVersion: Int64
    /// Core Data's `NSPersistenceFrameworkVersion` in the metadata: the Core Data release whose
    /// layout the store has (Strata writes 1344); `nil` when the metadata lacks it.
    public var coreDataFrameworkVersion: Int?
    /// Core Data's `NSStoreModelVersionHashesVersion` in the metadata (3); `nil` when it lacks it.
    public var versionHashesVersion: Int?
    /// SQLite's journal mode for the file: `wal` for stores Core Data and Strata write.
    public var journalMode: String
    /// The file's tables, by name: Core Data's `Z_METADATA` and `Z_PRIMARYKEY`, one table per
    /// root entity and one per many-to-many relationship.
    public var tables: [String]
}

extension SQLiteStoreFileFormat {
    /// Reads the format of the SQLite store file at `url`.
    ///
    /// ```swift
    /// let format = try SQLiteStoreFileFormat(ofStoreAt: url)   // metadataVersion 1, journalMode "wal"
    /// ```
    ///
    /// - Throws: `StoreError` with code `StoreError/Code/io` when the file cannot be read,
    ///   `StoreError/Code/corrupt` when it is not an SQLite database or holds no store metadata.
    public init(ofStoreAt url: URL) throws {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(code: .io, message: "There is no SQLite store at '\(path)'.")
        }
        do {
            let connection = try SQLiteConnection(path: path, mode: .readOnly)
            let tables = try connection.statement("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
                .rows { $0.value(at: 0) }.compactMap { value -> String? in
                    guard case .text(let name) = value else { return nil }
                    return name
                }
            let rows =
                tables.contains("Z_METADATA")
                ? try connection.statement("SELECT Z_VERSION, Z_PLIST FROM Z_METADATA").rows {
                    ($0.value(at: 0), $0.value(at: 1))
                } : []
            guard let (versionValue, plistValue) = rows.first, case .integer(let version) = versionValue else {
                throw StoreError(
                    code: .corrupt, message: "The SQLite file at '\(path)' is not a store: it has no metadata row.")
            }
            let modes = try connection.statement("PRAGMA journal_mode").rows { $0.value(at: 0) }
            guard case .text(let journalMode)? = modes.first else {
                throw StoreError(code: .corrupt, message: "SQLite reports no journal mode for '\(path)'.")
            }
            let plist: Data = if case .blob(let bytes) = plistValue { Data(bytes) } else { Data() }
            let coreData = SQLiteMetadataPlist.coreDataVersions(plist)
            self.init(
                metadataVersion: version, coreDataFrameworkVersion: coreData.framework,
                versionHashesVersion: coreData.versionHashes, journalMode: journalMode, tables: tables)
        } catch let error as SQLiteError {
            throw SQLiteStoreFile.storeError(error, path: path, doing: "reading its format")
        }
    }
}
