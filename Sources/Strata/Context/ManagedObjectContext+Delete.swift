extension ManagedObjectContext {
    /// Marks `object` for deletion at the next save and applies its relationships' delete rules
    /// now: *nullify* removes it from the inverse relationships, *cascade* deletes the
    /// destinations too (through chains and cycles), *deny* is checked when saving, and
    /// *no action* leaves the destinations alone. A new object is simply discarded.
    ///
    /// Removing the object from a to-many inverse whose members are not loaded reads nothing
    /// now: the destination counts as changed, and the removal is made when its members load
    /// (at the latest, when the context saves). A context with an ``undoManager`` loads them at
    /// once.
    ///
    /// - Throws: the error loading a relationship's destinations gave.
    public func delete(_ object: ManagedObject) throws {
        assertOnQueue()
        precondition(object.managedObjectContext === self, "\(object.objectID) belongs to another context.")
        guard !object.isDeleted else { return }
        try object.willAccessValues()
        markDeleted(object)
        for relationship in object.entity.relationships {
            try applyDeleteRule(of: relationship, deleting: object)
        }
        if object.isDiscarded {
            registered[object.objectID] = nil
            discardedObjects.append(object)
        }
    }

    /// Marks `object` deleted without applying delete rules: a new object is discarded, a
    /// saved one is marked for deletion at the next save.
    func markDeleted(_ object: ManagedObject) {
        undoManager?.record(.deletion(object))
        if pendingInserts.contains(object) {
            pendingInserts.remove(object)
            // An insertion already announced is announced undone.
            if !unprocessedChanges.inserted.remove(object) { unprocessedChanges.deleted.append(object) }
            object.isDiscarded = true
        } else {
            pendingDeletions.append(object)
            unprocessedChanges.deleted.append(object)
        }
        unprocessedChanges.updated.remove(object)
    }

    private func applyDeleteRule(of relationship: RelationshipDescription, deleting object: ManagedObject) throws {
        // The destinations of a to-many relationship load in one batch, not one by one as each
        // is changed or deleted.
        if relationship.isToMany, relationship.deleteRule == .nullify || relationship.deleteRule == .cascade {
            let members = try members(of: object, relationship)
            if members.count > 1 { prefetchSnapshots(for: members) }
        }
        switch relationship.deleteRule {
        case .nullify:
            guard let inverse = object.inverse(of: relationship) else { return }
            for destination in try object.destinations(of: relationship) where !destination.isDeleted {
                try destination.detach(object, from: inverse)
            }
        case .cascade:
            for destination in try object.destinations(of: relationship) where !destination.isDeleted {
                try delete(destination)
            }
        case .deny, .noAction:
            return
        }
    }
}
