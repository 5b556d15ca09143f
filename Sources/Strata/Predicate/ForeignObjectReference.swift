/// An object of another store, as a store's predicate evaluator sees it at the end of a
/// relationship across stores (``StoreCapabilities/crossStoreRelationships``): it stands for
/// its ID in comparisons (`city == %@`, `city IN %@`), and its keys read as null, since the
/// store holds none of its values. The context never sends a store a key path that goes
/// further: it answers those in two steps.
public struct ForeignObjectReference: KeyValueResolving, Sendable {
    /// The object's ID, naming its store.
    public let objectID: ObjectID

    /// The reference to `objectID`.
    public init(_ objectID: ObjectID) { self.objectID = objectID }

    public func resolvedValue(forKey key: String) -> ResolvedValue? { .value(.null) }

    public var objectIdentity: AttributeValue { .objectID(objectID) }
}
