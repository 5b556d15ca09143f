import Foundation

/// An identity made of one UUID (``ReplicaID``, ``GlobalID``): ordered by the UUID's bytes, the
/// same on every machine, and coded as the UUID's string.
public protocol UUIDIdentity: Hashable, Comparable, Codable, CustomStringConvertible {
    /// The UUID.
    var uuid: UUID { get }
    /// The identity with `uuid`.
    init(_ uuid: UUID)
}

extension UUIDIdentity {
    /// A new, random identity.
    public static func random() -> Self { Self(UUID()) }

    /// Orders identities by the bytes of their UUIDs.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        withUnsafeBytes(of: lhs.uuid.uuid) { mine in
            withUnsafeBytes(of: rhs.uuid.uuid) { theirs in mine.lexicographicallyPrecedes(theirs) }
        }
    }

    public var description: String { uuid.uuidString }

    public init(from decoder: any Decoder) throws { self.init(try UUID(from: decoder)) }

    public func encode(to encoder: any Encoder) throws { try uuid.encode(to: encoder) }
}
