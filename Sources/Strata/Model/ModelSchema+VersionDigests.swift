extension ModelSchema {
    /// A digest of the whole model's version: SHA-512 over each entity's name (UTF-8) followed by
    /// its version hash, entities in name order (64 bytes).
    ///
    /// Core Data writes this, base64-encoded, as `NSStoreModelVersionHashesDigest` in the
    /// metadata of SQLite stores (framework version 1044 and later).
    ///
    /// - Complexity: O(*n* log *n*), where *n* is the number of entities.
    public var versionHashesDigest: [UInt8] { VersionHash.modelDigest(entityVersionHashes) }

    /// The model's version checksum: SHA-256 over the entities' version hashes, entities in
    /// name order (32 bytes).
    ///
    /// Core Data writes this, base64-encoded, as `NSStoreModelVersionChecksumKey` in store
    /// metadata and as `NSManagedObjectModel_VersionChecksums` in a compiled model's
    /// `VersionInfo.plist`; it is `NSManagedObjectModel.versionChecksum`.
    ///
    /// - Complexity: O(*n* log *n*), where *n* is the number of entities.
    public var versionChecksum: [UInt8] { VersionHash.modelChecksum(entityVersionHashes) }
}
