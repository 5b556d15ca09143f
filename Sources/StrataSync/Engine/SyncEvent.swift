import Foundation

/// What a ``SyncEngine`` did, as it does it.
public enum SyncEvent: Sendable {
    /// The hub took a push of `operations` operations at `sequence` (or had it already).
    case pushed(operations: Int, sequence: Int64)
    /// A pull brought `operations` operations of other replicas, up to `cursor` in the log.
    case pulled(operations: Int, cursor: Int64)
    /// A pulled operation lost to a write or deletion stamped later: `operation`'s value is not
    /// shown, `winner`'s is.
    case conflictSettled(operation: SyncOperation, winner: SyncTimestamp)
    /// The entity's resolver settled `conflict` by keeping `kept`, which the replica pushes as
    /// its own change.
    case conflictResolved(SyncConflict, kept: SyncValue)
    /// A pulled timestamp read further ahead of this machine's clock than the clock accepts;
    /// the operation still applies, and the clock does not move to it.
    case clockDrift(SyncError)
    /// A sync failed with `message`; the next one starts where this one stopped.
    case failed(message: String)
}

/// Where a ``SyncEngine`` stands.
public struct SyncStatus: Sendable, Hashable {
    /// Pushes made but not yet acknowledged by the hub.
    public var pendingPushes: Int
    /// The last place in the hub's log the replica has pulled.
    public var cursor: Int64
    /// When the last sync that reached the end of the hub's log ended.
    public var lastSync: Date?
    /// Whether the engine is watching for changes (``SyncEngine/start()``).
    public var isWatching: Bool
}
