import Foundation
import Strata
import StrataBinary
import StrataLMDB
import StrataSQLite
import StrataXML

extension StoreType {
    /// Every built-in store type with a file: SQLite, LMDB, XML and binary. In-memory stores
    /// are registered on every coordinator already.
    ///
    /// ```swift
    /// let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: StoreType.builtInFileTypes)
    /// ```
    public static let builtInFileTypes: [StoreType] = [.sqlite, .lmdb, .xml, .binary]
}

extension StoreType {
    /// The built-in file type whose store is the file at `url`, told from the file's first
    /// bytes (`StoreType/identify(fileAt:among:)` over ``builtInFileTypes``).
    ///
    /// - Throws: `StoreError` with code `StoreError/Code/io` when the file cannot be read,
    ///   or `StoreError/Code/unknownStoreType` naming the file and its first bytes when it is
    ///   none of them.
    public static func builtInFileType(ofFileAt url: URL) throws -> StoreType {
        try identify(fileAt: url, among: builtInFileTypes)
    }
}
