/// What a batch request returns besides its changes.
public enum BatchResultType: Sendable, Hashable {
    /// Whether the request succeeded (it always did when it returns).
    case statusOnly
    /// How many objects the request inserted, updated or deleted.
    case count
    /// The IDs of the objects the request inserted, updated or deleted.
    case objectIDs
}

/// What a batch request did.
public struct BatchResult: Sendable, Hashable {
    /// `true`: a request that fails throws instead.
    public let status: Bool
    /// How many objects the request acted on, for ``BatchResultType/count``; `nil` otherwise.
    public let count: Int?
    /// The objects the request acted on, for ``BatchResultType/objectIDs``; `nil` otherwise.
    /// For a deletion, the objects it matched (the delete rules' effects are in ``changes``).
    public let objectIDs: [ObjectID]?
    /// Every object the request inserted, updated or deleted, delete rules' effects included,
    /// for ``BatchResultType/objectIDs``; empty otherwise, as Core Data gives object IDs only
    /// then. It is what ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``
    /// brings into contexts.
    public let changes: ContextNotification
    /// How many objects the request acted on, whatever the result type.
    let actedCount: Int

    init(_ type: BatchResultType, acted objectIDs: [ObjectID], changes: ContextNotification) {
        self.init(type, count: objectIDs.count, acted: objectIDs, changes: { changes })
    }

    /// A result of `count` objects, listing `objectIDs` and `changes()` (called only when the
    /// result type lists objects).
    init(
        _ type: BatchResultType, count: Int, acted objectIDs: [ObjectID],
        changes: () -> ContextNotification
    ) {
        self.status = true
        actedCount = count
        self.count = type == .count ? count : nil
        self.objectIDs = type == .objectIDs ? objectIDs : nil
        self.changes = type == .objectIDs ? changes() : ContextNotification(kind: .didSave)
    }
}

/// Deletes the objects a fetch matches, or given objects, in one save of their store, without
/// going through a context of the caller's (Core Data's `NSBatchDeleteRequest`). Delete rules
/// apply as in a context: cascade and nullify reach related objects, and a deny that would be
/// broken fails the request naming the relationship. The deletion is recorded in persistent
/// history; contexts learn of it through
/// ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``.
public struct BatchDeleteRequest: Sendable {
    /// The entity whose objects are deleted; `nil` for a request of object IDs.
    public var entityName: String?
    /// The condition the deleted objects meet; `nil` for every object of the entity.
    public var predicate: FetchPredicate?
    /// Whether objects of sub-entities are deleted too.
    public var includesSubentities = true
    /// The objects to delete, for a request of object IDs.
    public var objectIDs: [ObjectID]?
    /// What the result holds.
    public var resultType = BatchResultType.statusOnly

    /// Deletes the objects of `entityName` that `predicate` matches.
    public init(entityName: String, predicate: FetchPredicate? = nil) {
        self.entityName = entityName
        self.predicate = predicate
    }

    /// Deletes the objects `fetchRequest` matches (its entity, predicate and sub-entities).
    public init<Result>(fetchRequest: FetchRequest<Result>) {
        self.init(entityName: fetchRequest.entityName, predicate: fetchRequest.predicate)
        includesSubentities = fetchRequest.includesSubentities
    }

    /// Deletes `objectIDs`.
    public init(objectIDs: [ObjectID]) {
        self.objectIDs = objectIDs
    }
}

/// Sets attributes of the objects a fetch matches, in one save of their store, without going
/// through a context of the caller's (Core Data's `NSBatchUpdateRequest`). Each new value is an
/// expression evaluated on the object (`price * 1.1`, a constant, a function); versions are
/// raised and the change is recorded in persistent history.
public struct BatchUpdateRequest: Sendable {
    /// The entity whose objects are updated.
    public var entityName: String
    /// The condition the updated objects meet; `nil` for every object of the entity.
    public var predicate: FetchPredicate?
    /// Whether objects of sub-entities are updated too.
    public var includesSubentities = true
    /// The new value of each attribute, by name.
    public var propertiesToUpdate: [String: FetchExpression]
    /// What the result holds.
    public var resultType = BatchResultType.statusOnly

    /// Updates the objects of `entityName` that `predicate` matches.
    public init(
        entityName: String, predicate: FetchPredicate? = nil, propertiesToUpdate: [String: FetchExpression] = [:]
    ) {
        self.entityName = entityName
        self.predicate = predicate
        self.propertiesToUpdate = propertiesToUpdate
    }
}

/// Inserts objects from dictionaries of attribute values, in one save of their store, without
/// going through a context of the caller's (Core Data's `NSBatchInsertRequest`). Attributes
/// left out take their defaults. With uniqueness constraints, an object clashing with a saved
/// one updates it (the upsert of ``MergePolicy/mergeByPropertyObjectTrump``), as in Core Data.
public struct BatchInsertRequest: Sendable {
    /// The entity of the new objects.
    public var entityName: String
    /// The new objects' attribute values, by attribute name.
    public var objects: [[String: AttributeValue]]
    /// Fills one new object's values each time it is called, until it returns `true` (that
    /// call's values are not inserted); used instead of ``objects`` when set.
    public var dictionaryHandler: (@Sendable (inout [String: AttributeValue]) -> Bool)?
    /// What the result holds.
    public var resultType = BatchResultType.statusOnly

    /// Inserts `objects` as objects of `entityName`.
    public init(entityName: String, objects: [[String: AttributeValue]]) {
        self.entityName = entityName
        self.objects = objects
    }

    /// Inserts the objects `handler` fills, one per call, until it returns `true`.
    public init(
        entityName: String, dictionaryHandler handler: @escaping @Sendable (inout [String: AttributeValue]) -> Bool
    ) {
        self.entityName = entityName
        self.objects = []
        self.dictionaryHandler = handler
    }
}
