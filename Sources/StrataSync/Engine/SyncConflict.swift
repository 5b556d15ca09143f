/// A write this replica made to an attribute or to-one relationship that another replica's
/// write, made without seeing it, superseded: what a resolver (``SyncEngine/Options/resolvers``)
/// is shown, on the replica whose write lost.
public struct SyncConflict: Sendable, Hashable {
    /// The object written.
    public let object: GlobalID
    /// The object's entity.
    public let entity: String
    /// The key written, as it syncs (a renamed property's renaming identifier).
    public let key: String
    /// What the key held on this replica before its write; `nil` when nothing had set it.
    public let base: SyncValue?
    /// This replica's write, which lost.
    public let local: SyncValue
    /// The other replica's write, which won under the rules and shows now.
    public let remote: SyncValue

    /// A conflict over `key` of `object`.
    public init(object: GlobalID, entity: String, key: String, base: SyncValue?, local: SyncValue, remote: SyncValue) {
        self.object = object
        self.entity = entity
        self.key = key
        self.base = base
        self.local = local
        self.remote = remote
    }
}

/// Settles a ``SyncConflict``: the value the key is to hold, or `nil` to keep the remote
/// write. A value other than the remote one is saved to the replica's store as its own change,
/// stamped after both writes, so it reaches every replica at the next sync.
public typealias SyncResolver = @Sendable (SyncConflict) -> SyncValue?
