import Foundation

/// What a store records about itself and the model it was written with, readable before the
/// store is opened to decide whether a migration is needed.
///
/// The keys follow Core Data's: the store type and UUID, each entity's version hash
/// (`NSStoreModelVersionHashes`), the model's version identifiers, the hash layout version
/// and the framework version; Strata adds the model's JSON form so that tools can open a store
/// without the application's model. Applications add their own keys in ``userInfo``.
///
/// It is `Codable`, keyed by its property names, so that a store keeping its metadata in a
/// document of its own (JSON, say) encodes it whole.
public struct StoreMetadata: Sendable, Hashable, Codable {
    /// The layout version of the version hashes, Core Data's `NSStoreModelVersionHashesVersion`.
    public static let currentVersionHashesVersion = 3

    /// The store's type name, such as `"SQLite"`.
    public var storeType: String
    /// The store's UUID string; it identifies the store in object IDs and survives migration.
    public var storeIdentifier: String
    /// The version hash (32 bytes) of every entity the store was written with, by name.
    public var versionHashes: [String: [UInt8]]
    /// The model's version identifiers.
    public var versionIdentifiers: [String]
    /// The layout version of ``versionHashes``.
    public var versionHashesVersion: Int
    /// The version of Strata that wrote the store.
    public var frameworkVersion: String
    /// The model's JSON form (``ManagedObjectModel/jsonData()``), if recorded.
    public var modelJSON: Data?
    /// The application's own keys.
    public var userInfo: [String: AttributeValue]

    /// Metadata for a store of `storeType` holding the entities of `configuration` (every
    /// entity when `nil`) of the frozen `model`.
    ///
    /// - Precondition: `model` is frozen.
    public init(
        storeType: String, storeIdentifier: String = UUID().uuidString, model: ManagedObjectModel,
        configuration: String? = nil, userInfo: [String: AttributeValue] = [:]
    ) {
        let hashes = model.schema.entityVersionHashes
        let members = Set(model.entityNames(inConfiguration: configuration))
        self.init(
            storeType: storeType, storeIdentifier: storeIdentifier,
            versionHashes: hashes.filter { members.contains($0.key) }, versionIdentifiers: model.versionIdentifiers,
            versionHashesVersion: Self.currentVersionHashesVersion, frameworkVersion: StrataVersion.current,
            modelJSON: model.jsonData(), userInfo: userInfo)
    }

    /// Metadata from its parts, as a store reads them back.
    public init(
        storeType: String, storeIdentifier: String, versionHashes: [String: [UInt8]], versionIdentifiers: [String],
        versionHashesVersion: Int, frameworkVersion: String, modelJSON: Data?, userInfo: [String: AttributeValue]
    ) {
        self.storeType = storeType
        self.storeIdentifier = storeIdentifier
        self.versionHashes = versionHashes
        self.versionIdentifiers = versionIdentifiers
        self.versionHashesVersion = versionHashesVersion
        self.frameworkVersion = frameworkVersion
        self.modelJSON = modelJSON
        self.userInfo = userInfo
    }
}

extension StoreMetadata {
    /// The digest Core Data records as `NSStoreModelVersionHashesDigest`: SHA-512 over each
    /// entity's name and version hash in ``versionHashes``, entities in name order (64 bytes).
    public var versionHashesDigest: [UInt8] { VersionHash.modelDigest(versionHashes) }

    /// The checksum Core Data records as `NSStoreModelVersionChecksumKey`: SHA-256 over the
    /// version hashes in ``versionHashes``, entities in name order (32 bytes).
    public var versionChecksum: [UInt8] { VersionHash.modelChecksum(versionHashes) }
}

/// The version of Strata, recorded in the metadata of every store it writes.
public enum StrataVersion {
    /// This build's version.
    public static let current = "0.1.0"
}
