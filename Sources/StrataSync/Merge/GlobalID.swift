import Foundation

/// The identity of a synced object on every replica and in the hub, apart from the object ID
/// each store gives it. Relationships travel between replicas by global ID.
public struct GlobalID: UUIDIdentity, Sendable {
    /// The object's UUID.
    public let uuid: UUID

    /// The object with `uuid`.
    public init(_ uuid: UUID) { self.uuid = uuid }
}
