import Foundation

/// A reading of a replica's hybrid logical clock (``HybridLogicalClock``): the wall-clock
/// milliseconds it stands at, a counter telling apart the events of one millisecond, and the
/// replica that made it.
///
/// Timestamps are totally ordered — milliseconds, then counter, then replica — so that two
/// replicas comparing the same two timestamps always agree on which is later, whatever order
/// they learned of them in. No two events of one replica share a timestamp.
public struct SyncTimestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01 UTC, as the clock reckons them.
    public let milliseconds: Int64
    /// The event's number within its millisecond.
    public let counter: UInt32
    /// The replica whose clock made the timestamp.
    public let replica: ReplicaID

    /// A timestamp.
    public init(milliseconds: Int64, counter: UInt32, replica: ReplicaID) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.replica = replica
    }

    public static func < (lhs: SyncTimestamp, rhs: SyncTimestamp) -> Bool {
        if lhs.milliseconds != rhs.milliseconds { return lhs.milliseconds < rhs.milliseconds }
        if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
        return lhs.replica < rhs.replica
    }

    public var description: String { "\(milliseconds).\(counter)@\(replica)" }

    /// Encodes as its ``description``, `"1796633692151.0@E621E1F8-C36C-495A-93FC-0C247A3E6E5F"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        let parts = text.split(separator: "@", maxSplits: 1)
        let clock = parts.first?.split(separator: ".", maxSplits: 1) ?? []
        guard parts.count == 2, clock.count == 2, let milliseconds = Int64(clock[0]), let counter = UInt32(clock[1]),
            let uuid = UUID(uuidString: String(parts[1]))
        else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a timestamp (milliseconds.counter@replica).")
        }
        self.init(milliseconds: milliseconds, counter: counter, replica: ReplicaID(uuid))
    }
}
