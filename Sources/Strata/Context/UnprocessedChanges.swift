import OrderedCollections

/// A context's changes since it last posted objects-did-change. The inserted and updated
/// objects are marked lists: every value an object is given notes it again, and asking whether
/// it is noted already must not hash it.
final class UnprocessedChanges {
    let inserted = PendingObjects(.unprocessedInserted)
    let updated = PendingObjects(.unprocessedUpdated)
    var deleted: OrderedSet<ManagedObject> = []
    var refreshed: OrderedSet<ManagedObject> = []

    var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty }

    /// The changes noted, leaving none.
    func take() -> ObjectChanges {
        let changes = ObjectChanges(
            inserted: inserted.elements, updated: updated.elements, deleted: deleted.elements,
            refreshed: refreshed.elements)
        removeAll()
        return changes
    }

    /// Forgets every change noted.
    func removeAll() {
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        refreshed.removeAll()
    }
}
