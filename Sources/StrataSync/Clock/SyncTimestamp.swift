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
}
