/// A batch update a store may carry out itself, in one statement or transaction, without the
/// core loading the objects: new values for attributes of the objects a predicate matches,
/// constant or computed from each object's attributes. The core hands it only to a store
/// declaring ``StoreCapabilities/batchOperations``, and only when the update is one a
/// context's save would accept as it is: every constant fits its attribute's type, no
/// attribute has validation rules (a non-optional one gets no null) or is transformable or
/// derived, none is a key of a uniqueness constraint, and the store evaluates the predicate
/// itself.
public struct StoreBatchUpdate: Sendable, Hashable {
    /// The entity whose objects are updated.
    public var entityName: String
    /// Whether objects of sub-entities are updated too.
    public var includesSubentities: Bool
    /// The condition the updated objects meet; `nil` for every object of the entity.
    public var predicate: FetchPredicate?
    /// The new value of each attribute, by name.
    public var values: [String: AttributeValue]
    /// The attributes whose new value is computed for each object, by name (only for a store
    /// declaring ``StoreCapabilities/batchComputedValues``; empty otherwise): each expression
    /// reads only attributes of the entity (``FetchExpression/plainKeys``), as the object was
    /// before the update, and is evaluated as ``FetchEvaluation`` evaluates it, one
    /// evaluation serving every object. The store keeps the value as its attribute's type
    /// holds it (``AttributeType/coerce(_:)``); when a value does not fit, or is null for a
    /// non-optional attribute, the store changes nothing and returns `nil`, and the core's
    /// context reports it.
    public var expressions: [String: FetchExpression]
    /// Whether the result lists the updated objects. When `false`, the store may give only
    /// their count (the core then forgets every cached snapshot of the store).
    public var listsObjectIDs: Bool
    /// The transaction a store recording persistent history records the update as, one
    /// change per object listing the updated attributes. A store that records history but
    /// cannot record this returns `nil`.
    public var history: StoreChangeSet.HistoryInfo?

    /// Creates an update.
    public init(
        entityName: String, includesSubentities: Bool = true, predicate: FetchPredicate? = nil,
        values: [String: AttributeValue], expressions: [String: FetchExpression] = [:], listsObjectIDs: Bool = true,
        history: StoreChangeSet.HistoryInfo? = nil
    ) {
        self.entityName = entityName
        self.includesSubentities = includesSubentities
        self.predicate = predicate
        self.values = values
        self.expressions = expressions
        self.listsObjectIDs = listsObjectIDs
        self.history = history
    }
}

/// What a store's batch update did.
public struct StoreBatchUpdateResult: Sendable, Hashable {
    /// How many objects it updated.
    public var count: Int
    /// The updated objects; `nil` when the update does not list them.
    public var objectIDs: [ObjectID]?

    /// A result listing the updated objects.
    public init(objectIDs: [ObjectID]) {
        count = objectIDs.count
        self.objectIDs = objectIDs
    }

    /// A result giving only how many objects were updated.
    public init(count: Int) {
        self.count = count
        objectIDs = nil
    }
}
