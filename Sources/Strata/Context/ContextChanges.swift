/// A context's notification as its observers on the context's queue receive it: the objects
/// themselves, plus the `Sendable` form.
public struct ContextChanges {
    /// Which notification it is.
    public var kind: ContextNotification.Kind { notification.kind }
    /// Inserted objects.
    public let insertedObjects: Set<ManagedObject>
    /// Changed objects.
    public let updatedObjects: Set<ManagedObject>
    /// Deleted objects.
    public let deletedObjects: Set<ManagedObject>
    /// Objects refreshed from their stores.
    public let refreshedObjects: Set<ManagedObject>
    /// The same notification by object ID, to hand to other threads or contexts.
    public let notification: ContextNotification
}

@available(*, unavailable)
extension ContextChanges: Sendable {}

/// Objects inserted, updated, deleted and refreshed, as a notification reports them; each
/// object appears at most once in each list.
struct ObjectChanges {
    var inserted: [ManagedObject] = []
    var updated: [ManagedObject] = []
    var deleted: [ManagedObject] = []
    var refreshed: [ManagedObject] = []

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty }

    func changes(kind: ContextNotification.Kind, contextName: String?) -> ContextChanges {
        ContextChanges(
            insertedObjects: Set(inserted), updatedObjects: Set(updated), deletedObjects: Set(deleted),
            refreshedObjects: Set(refreshed),
            notification: ContextNotification(
                kind: kind, contextName: contextName, insertedObjectIDs: Set(inserted.map(\.objectID)),
                updatedObjectIDs: Set(updated.map(\.objectID)), deletedObjectIDs: Set(deleted.map(\.objectID)),
                refreshedObjectIDs: Set(refreshed.map(\.objectID))))
    }
}
