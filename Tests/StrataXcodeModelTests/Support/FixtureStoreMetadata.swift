import CStrataSQLite
import Foundation
import Testing

/// The metadata dictionary of a Core Data SQLite store: `Z_METADATA.Z_PLIST`, a binary
/// property list.
struct FixtureStoreMetadata {
    /// The decoded dictionary.
    let values: [String: Any]

    /// Reads the metadata of the store at `url`, which must be a copy (SQLite may write next
    /// to the file it opens). Opens the file with `sqlite3_open_v2`, read-only, and checks that
    /// `sqlite3_close` succeeds, which it does only once every statement is finalized.
    init(storeAt url: URL) throws {
        var handle: OpaquePointer?
        let opened = sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READONLY, nil)
        defer { #expect(sqlite3_close(handle) == SQLITE_OK, "every SQLite handle is closed") }
        guard opened == SQLITE_OK, let handle else {
            throw FixtureStoreMetadataError("cannot open \(url.path): \(opened)")
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "SELECT Z_PLIST FROM Z_METADATA", -1, &statement, nil) == SQLITE_OK else {
            throw FixtureStoreMetadataError(String(cString: sqlite3_errmsg(handle)))
        }
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW, let bytes = sqlite3_column_blob(statement, 0) else {
            throw FixtureStoreMetadataError("\(url.path) has no Z_METADATA row")
        }
        let data = Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, 0)))
        guard let values = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
            throw FixtureStoreMetadataError("Z_PLIST of \(url.path) is not a dictionary")
        }
        self.values = values
    }

    /// `NSStoreModelVersionHashes`: each entity's version hash.
    var entityVersionHashes: [String: [UInt8]] {
        (values["NSStoreModelVersionHashes"] as? [String: Data] ?? [:]).mapValues { Array($0) }
    }

    /// `NSStoreModelVersionIdentifiers`.
    var versionIdentifiers: [String] { values["NSStoreModelVersionIdentifiers"] as? [String] ?? [] }

    /// The string stored under `key`, if any.
    func string(_ key: String) -> String? { values[key] as? String }
}

/// A store's metadata could not be read.
struct FixtureStoreMetadataError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
