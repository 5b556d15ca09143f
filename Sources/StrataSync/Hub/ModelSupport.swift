import Foundation
import Strata

/// A version of the application's model as sync tells versions apart: the digest of its
/// entities' version hashes, with a name for people to read.
///
/// Versions that differ only in what version hashes leave out (indexes, defaults, renaming
/// identifiers, transient properties) have the same digest, as Core Data counts them the same
/// version.
public struct SyncModelVersion: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The version hashes digest (`ModelSchema.versionHashesDigest`) of the application's
    /// entities — sync's own left out — in base64.
    public let digest: String
    /// The version's name, if it has one: the model's first version identifier, or the name a
    /// hub's list of versions gives it.
    public let name: String?

    /// The version `digest` names, called `name`.
    public init(digest: String, name: String?) {
        self.digest = digest
        self.name = name
    }

    /// The version of `model` — an application's model, or a replica's
    /// (``SyncModel/replicaModel(for:)``), which give the same — named `name`, or by the model's
    /// first version identifier that is not empty. `model` is left as it is.
    ///
    /// - Throws: `ModelError` when the application's entities are not a valid model.
    public init(of model: ManagedObjectModel, named name: String? = nil) throws(ModelError) {
        let application = ManagedObjectModel(entities: model.entities.filter { !SyncModel.isSyncEntity($0.name) })
        try application.freeze()
        digest = Data(application.schema.versionHashesDigest).base64EncodedString()
        self.name = name ?? model.versionIdentifiers.first { !$0.isEmpty }
    }

    /// `'NAME' (digest PREFIX…)`, or the digest's prefix alone.
    public var description: String {
        let prefix = "digest \(digest.prefix(12))…"
        return name.map { "'\($0)' (\(prefix))" } ?? prefix
    }
}

/// Which versions of the application's model a hub serves: every version it knows, oldest
/// first, and the oldest it still serves. A replica on a version before that one is refused
/// with ``SyncError/Code/modelTooOld``, naming both; a version the hub does not know (a newer
/// one) is served, since the hub keeps every key a replica pushes. A version with the digest of
/// one served (they differ only in what version hashes leave out) is served.
public struct ModelSupport: Sendable, Hashable {
    /// Every version the hub knows, oldest first.
    public let versions: [SyncModelVersion]
    /// The oldest version the hub serves.
    public let oldestSupported: SyncModelVersion

    /// The versions `versions`, oldest first, served from the one named `oldestSupported` on;
    /// `nil` when no version has that name.
    public init?(versions: [SyncModelVersion], oldestSupported: String) {
        guard let oldest = versions.first(where: { $0.name == oldestSupported }) else { return nil }
        self.versions = versions
        self.oldestSupported = oldest
    }

    /// Refuses `model`, the version `replica` runs, when it is older than ``oldestSupported``.
    ///
    /// - Throws: ``SyncError/Code/modelTooOld`` naming the replica, its version (by the name
    ///   this list gives it) and the oldest version served.
    public func admit(_ model: SyncModelVersion, of replica: ReplicaID) throws {
        guard let oldest = versions.firstIndex(of: oldestSupported),
            !versions[oldest...].contains(where: { $0.digest == model.digest }),
            let retired = versions[..<oldest].lastIndex(where: { $0.digest == model.digest })
        else { return }
        throw SyncError(
            code: .modelTooOld,
            message:
                "Replica \(replica) runs model version \(versions[retired]), older than \(oldestSupported), the oldest "
                + "this hub serves; update the application.")
    }
}
