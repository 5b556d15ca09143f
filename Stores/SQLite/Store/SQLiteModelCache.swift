import Foundation
import Strata

/// The model an SQLite store written by Core Data keeps beside its objects.
///
/// Core Data saves, in the `Z_MODELCACHE` table, the compiled model the store was last saved
/// with, compressed (COREDATA-FORMATS §B.1): the only copy of a model built in code, and what
/// lets a tool open such a store without the app. StrataXcodeModel's
/// `CompiledModel.load(modelCache:file:logger:)` reads what this returns.
///
/// ```swift
/// if let cache = try SQLiteModelCache.compressedModel(ofStoreAt: url) {
///     let model = try CompiledModel.load(modelCache: cache, file: url.path)
/// }
/// ```
public enum SQLiteModelCache {
    /// The compressed model in the `Z_MODELCACHE` table of the store at `url`, read without
    /// opening the store; `nil` when there is no file, no such table (Strata's stores, Core
    /// Data's before 2013) or no row in it.
    ///
    /// - Throws: `StoreError` with code `StoreError/Code/corrupt` or `StoreError/Code/io`
    ///   naming the file when it cannot be read as an SQLite database.
    public static func compressedModel(ofStoreAt url: URL) throws -> Data? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do throws(SQLiteError) {
            let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
            let tables = try connection.statement(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Z_MODELCACHE'"
            ).rows { $0.value(at: 0) }
            guard !tables.isEmpty else { return nil }
            let rows = try connection.statement("SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1").rows { $0.value(at: 0) }
            guard case .blob(let bytes)? = rows.first else { return nil }
            return Data(bytes)
        } catch {
            throw SQLiteStoreFile.storeError(error, path: url.path, doing: "reading its model cache")
        }
    }
}
