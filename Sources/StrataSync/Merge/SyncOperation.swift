/// One change to one synced object, as replicas push it to the hub and pull it from there:
/// the unit the merge rules apply (``MergeState/apply(_:)``).
///
/// A new object travels as an ``Change/insert``, the ``Change/set(key:value:)`` of each of its
/// attributes and to-one relationships, the ``Change/add(key:member:)`` of each member of
/// its to-many relationships and the ``Change/place(key:member:position:)`` of each member of
/// its ordered ones, all stamped with the insert's timestamp.
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
        /// Places `member` at `position` in the ordered to-many relationship `key`: the members
        /// of an ordered relationship show in the order of their latest placements. Which
        /// objects are members is for additions and removals, or the inverse's references, to
        /// say; a placement only orders them.
        case place(key: String, member: GlobalID, position: OrderPosition)
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

    /// Whether the operation sets an attribute to a store's object ID, which no replica sends
    /// (``SyncValue/attribute(_:)``) and a hub refuses.
    var setsAStoreObjectID: Bool {
        if case .set(_, .attribute(.objectID)) = change { true } else { false }
    }
}
