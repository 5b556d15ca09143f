/// Something that happened to an object observed with
/// ``ManagedObjectContext/changes(of:)``.
public struct ObjectChange: Sendable, Hashable {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// Its values or relationships changed in the context.
        case changed
        /// It was refreshed from its store (a merge of another context's save, for one).
        case refreshed
        /// A save of the context wrote its changes.
        case saved
        /// It was deleted: marked for deletion in the context, or gone from its store.
        case deleted
    }

    /// What happened.
    public var kind: Kind
    /// The object.
    public var objectID: ObjectID
}
