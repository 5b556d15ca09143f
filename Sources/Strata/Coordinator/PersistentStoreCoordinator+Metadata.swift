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
    ///   this coordinator (change an open store's user keys with ``setUserInfo(_:for:)``), or
    ///   whatever the type's metadata writer throws.
    public func setMetadata(_ metadata: StoreMetadata, forStoreOfType type: String, at url: URL) throws {
        let storeType = try storeType(named: type)
        if store(at: url) != nil {
            throw StoreError(
                code: .inUse,
                message: "The store at '\(url.nameInMessages)' is open in this coordinator; remove it first.")
        }
        try storeType.writeMetadata(metadata, url)
    }

    /// Replaces the user keys of an added store's metadata and saves them at once, as a
    /// metadata-only save; the store's objects are untouched.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unknownStore`` when `store` is not
    ///   added to this coordinator, or whatever the store's save throws (for example
    ///   ``StoreError/Code/readOnly``).
    public func setUserInfo(_ userInfo: [String: AttributeValue], for store: any IncrementalStore) throws {
        try save(StoreChangeSet(userInfo: userInfo), to: store)
    }

    /// Removes the store of type `type` at `url` and its side files.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/inUse`` when that store is added to
    ///   this coordinator, or whatever the type's destroyer throws.
    public func destroyStore(type: String, at url: URL) throws {
        let storeType = try storeType(named: type)
        if store(at: url) != nil {
            throw StoreError(
                code: .inUse,
                message: "The store at '\(url.nameInMessages)' is open in this coordinator; remove it first.")
        }
        try storeType.destroy(url)
    }

    /// Replaces the store of type `type` at `destination` (creating it when there is none) with a
    /// copy of the store at `source`, as Core Data's `replacePersistentStore` does: atomically,
    /// through the store type's own mechanism, never by moving files under open connections.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/inUse`` when the destination is added
    ///   to this coordinator, ``StoreError/Code/unsupported`` when the type cannot replace, or
    ///   whatever the type's replacer throws (``StoreError/Code/unknownObject`` for a missing source).
    public func replaceStore(type: String, at destination: URL, withStoreFrom source: URL) throws {
        let storeType = try storeType(named: type)
        if store(at: destination) != nil {
            throw StoreError(
                code: .inUse,
                message: "The store at '\(destination.nameInMessages)' is open in this coordinator; remove it first.")
        }
        guard let replace = storeType.replace else {
            throw StoreError(code: .unsupported, message: "\(type) stores cannot be replaced.")
        }
        try replace(destination, source)
    }
}
