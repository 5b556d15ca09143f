import Foundation

/// Where replicas meet: a log of every replica's pushes, each at a place (its sequence number)
/// that never changes, and the merged state they make. A replica pushes its operations and
/// pulls the others' after its cursor.
///
/// A hub is reached directly (``StoreHub``, in the replica's process) or over HTTP; both speak
/// this protocol.
public protocol SyncHub: Sendable {
    /// Adds `push` to the log, once: a push whose ID the log holds already, with the same
    /// replica and operations, is acknowledged with its first receipt and changes nothing.
    ///
    /// - Throws: ``SyncError`` with code ``SyncError/Code/malformedPush``,
    ///   ``SyncError/Code/forgedReplica``, ``SyncError/Code/pushTooLarge``,
    ///   ``SyncError/Code/pushReplayed`` or ``SyncError/Code/entityMismatch`` for a push the
    ///   hub refuses (the log is left as it was); the hub's store's errors.
    func push(_ push: SyncPush) async throws -> PushReceipt

    /// The pushes after `cursor` that `replica` did not make, oldest first, as many as fit in
    /// `byteLimit` bytes of operations (always at least one).
    func pull(after cursor: Int64, for replica: ReplicaID, byteLimit: Int) async throws -> PullBatch

    /// The log's last sequence number, now and each time it moves: a replica waiting for the
    /// others' changes pulls when it does.
    func heads() async -> AsyncStream<Int64>

    /// Checks that the hub serves `replica`, whose model is `model`; ``SyncEngine`` asks before
    /// its first sync, and again after a sync fails.
    ///
    /// - Throws: ``SyncError/Code/modelTooOld`` when the model is older than the oldest version
    ///   the hub serves (``ModelSupport``).
    func admit(_ replica: ReplicaID, model: SyncModelVersion) async throws
}

extension SyncHub {
    /// Serves every model version: for hubs that keep no ``ModelSupport``.
    public func admit(_ replica: ReplicaID, model: SyncModelVersion) async throws {}
}

/// A replica's operations sent to a hub under an ID, so that a push sent again after a lost
/// reply applies once.
public struct SyncPush: Sendable, Hashable, Codable {
    /// Chosen by the replica when it makes the push, kept until the hub acknowledges it.
    public var id: UUID
    /// The replica that made the operations; every operation is stamped by it.
    public var replica: ReplicaID
    /// The operations, in the order the replica applied them.
    public var operations: [SyncOperation]
    /// The last place in the hub's log the replica had pulled when it made the operations:
    /// a write in the log after it was made without seeing this push's, so the two are
    /// concurrent (what a resolver sees, ``SyncEngine/Options/resolvers``). `nil` when unknown.
    public var seen: Int64?

    /// Creates a push.
    public init(id: UUID = UUID(), replica: ReplicaID, operations: [SyncOperation], seen: Int64? = nil) {
        self.id = id
        self.replica = replica
        self.operations = operations
        self.seen = seen
    }
}

/// A hub's acknowledgement of a push.
public struct PushReceipt: Sendable, Hashable, Codable {
    /// The push's place in the log.
    public var sequence: Int64
    /// Whether the log held the push already (it was sent again).
    public var wasDuplicate: Bool

    /// Creates a receipt.
    public init(sequence: Int64, wasDuplicate: Bool) {
        self.sequence = sequence
        self.wasDuplicate = wasDuplicate
    }
}

/// One push in a hub's log.
public struct HubEntry: Sendable, Hashable, Codable {
    /// Its place in the log, from 1.
    public var sequence: Int64
    /// The push.
    public var push: SyncPush

    /// Creates an entry.
    public init(sequence: Int64, push: SyncPush) {
        self.sequence = sequence
        self.push = push
    }
}

/// What one pull gives a replica.
public struct PullBatch: Sendable, Hashable, Codable {
    /// The pushes of other replicas after the cursor, oldest first.
    public var entries: [HubEntry]
    /// Where the next pull starts: the last place in the log the batch covers, the replica's own
    /// pushes included.
    public var cursor: Int64
    /// Whether the batch reached the end of the log when it was taken.
    public var isComplete: Bool

    /// Creates a batch.
    public init(entries: [HubEntry], cursor: Int64, isComplete: Bool) {
        self.entries = entries
        self.cursor = cursor
        self.isComplete = isComplete
    }
}
