/// One change to one synced object, as replicas push it to the hub and pull it from there:
/// the unit the merge rules apply (``MergeState/apply(_:)``).
///
/// A new object travels as an ``Change/insert``, the ``Change/set(key:value:)`` of each of its
/// attributes and to-one relationships and the ``Change/add(key:member:)`` of each member of
/// its to-many relationships, all stamped with the insert's timestamp.
public struct SyncOperation: Sendable, Hashable, Codable {
    /// What the operation does to its object.
    public enum Change: Sendable, Hashable, Codable {
        /// Makes the object exist, with no values yet.
        case insert
        /// Sets an attribute or to-one relationship.
        case set(key: String, value: SyncValue)
        /// Adds `member` to the to-many relationship `key`; the operation's timestamp is the
        /// addition's tag.
        case add(key: String, member: GlobalID)
        /// Removes `member` from the to-many relationship `key`: the additions tagged
        /// `observed`, those the removing replica had seen. An addition it had not seen is
        /// concurrent with the removal, and stays.
        case remove(key: String, member: GlobalID, observed: [SyncTimestamp])
        /// Deletes the object.
        case delete
    }

    /// The object changed.
    public var object: GlobalID
    /// The object's entity.
    public var entity: String
    /// When, and on which replica, the change was made.
    public var stamp: SyncTimestamp
    /// The change.
    public var change: Change

    /// An operation.
    public init(object: GlobalID, entity: String, stamp: SyncTimestamp, change: Change) {
        self.object = object
        self.entity = entity
        self.stamp = stamp
        self.change = change
    }
}
