/// A context's notification in `Sendable` form: what happened and to which objects, by ID. It
/// crosses threads and tasks, and ``ManagedObjectContext/mergeChanges(fromContextDidSave:)``
/// applies a did-save one to another context.
public struct ContextNotification: Sendable, Hashable {
    /// Which notification it is.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// Objects were inserted, changed, deleted or refreshed; coalesced per perform block.
        public static let objectsDidChange = Kind(name: "objectsDidChange")
        /// A save is about to write; observers may still change objects.
        public static let willSave = Kind(name: "willSave")
        /// A save wrote its changes to the stores.
        public static let didSave = Kind(name: "didSave")

        /// The kind's name.
        public var description: String { name }
    }

    /// Which notification it is.
    public var kind: Kind
    /// The posting context's name.
    public var contextName: String?
    /// The IDs of inserted objects (permanent ones for ``Kind/didSave``).
    public var insertedObjectIDs: Set<ObjectID>
    /// The IDs of changed objects.
    public var updatedObjectIDs: Set<ObjectID>
    /// The IDs of deleted objects.
    public var deletedObjectIDs: Set<ObjectID>
    /// The IDs of objects refreshed from their stores.
    public var refreshedObjectIDs: Set<ObjectID>

    /// Creates a notification.
    public init(
        kind: Kind, contextName: String? = nil, insertedObjectIDs: Set<ObjectID> = [],
        updatedObjectIDs: Set<ObjectID> = [], deletedObjectIDs: Set<ObjectID> = [],
        refreshedObjectIDs: Set<ObjectID> = []
    ) {
        self.kind = kind
        self.contextName = contextName
        self.insertedObjectIDs = insertedObjectIDs
        self.updatedObjectIDs = updatedObjectIDs
        self.deletedObjectIDs = deletedObjectIDs
        self.refreshedObjectIDs = refreshedObjectIDs
    }
}
