import Foundation

extension PersistentStoreCoordinator {
    /// The object ID that `uri` (an ``ObjectID/uriRepresentation``) stands for; `nil` when `uri`
    /// is malformed, temporary, names a store not added to this coordinator, or an entity that
    /// store does not hold.
    ///
    /// The store is not asked whether the object still exists; use
    /// ``ManagedObjectContext/existingObject(with:)`` for that.
    public func objectID(forURIRepresentation uri: URL) -> ObjectID? {
        guard let objectID = ObjectID(uriRepresentation: uri), !objectID.isTemporary,
            let store = try? store(for: objectID), holds(store, entityName: objectID.entityName)
        else { return nil }
        return objectID
    }
}
