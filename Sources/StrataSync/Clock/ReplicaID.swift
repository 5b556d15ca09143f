import Foundation

/// The identity of one replica of a synced store: chosen once, when the replica is made, and
/// kept with it. Replica IDs break ties between timestamps of the same moment, so their order is
/// part of every merge rule.
public struct ReplicaID: UUIDIdentity, Sendable {
    /// The replica's UUID.
    public let uuid: UUID

    /// The replica with `uuid`.
    public init(_ uuid: UUID) { self.uuid = uuid }
}
