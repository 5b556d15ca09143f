import Foundation

extension PersistentStoreCoordinator {
    /// The metadata of the store of type `type` at `url`, read without opening the store; `nil`
    /// when there is no store there.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unknownStoreType``, or whatever
    ///   the type's metadata reader throws for a damaged or foreign file.
    public func metadataForStore(type: String, at url: URL) throws -> StoreMetadata? {
        try storeType(named: type).readMetadata(url)
    }

    /// Replaces the metadata of the store of type `type` at `url` without opening the store.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/inUse`` when that store is added to
    ///   this coordinator (change an open store's metadata by migrating it instead), or whatever
    ///   the type's metadata writer throws.
    public func setMetadata(_ metadata: StoreMetadata, forStoreOfType type: String, at url: URL) throws {
        let storeType = try storeType(named: type)
        if store(at: url) != nil {
            throw StoreError(
                code: .inUse, message: "The store at '\(url.path)' is open in this coordinator; remove it first.")
        }
        try storeType.writeMetadata(metadata, url)
    }

    /// Removes the store of type `type` at `url` and its side files.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/inUse`` when that store is added to
    ///   this coordinator, or whatever the type's destroyer throws.
    public func destroyStore(type: String, at url: URL) throws {
        let storeType = try storeType(named: type)
        if store(at: url) != nil {
            throw StoreError(
                code: .inUse, message: "The store at '\(url.path)' is open in this coordinator; remove it first.")
        }
        try storeType.destroy(url)
    }
}
