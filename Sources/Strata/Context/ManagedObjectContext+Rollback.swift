extension ManagedObjectContext {
    /// Discards every unsaved change: new objects leave the context, deleted ones come back,
    /// changed ones return to their last saved values. The ``undoManager`` forgets every group,
    /// as in Core Data.
    public func rollback() {
        assertOnQueue()
        undoManager?.removeAllActions()
        let discarded = pendingInserts.elements
        let reverted = pendingChanges.elements + pendingDeletions.elements.filter { !pendingChanges.contains($0) }
        for object in discarded {
            graph.remove(object)
            object.leaveContext()
        }
        for object in reverted { object.revertToCommitted() }
        graph.removeAllPending()
        unprocessedChanges.removeAll()
        unprocessedChanges.deleted.append(contentsOf: discarded)
        unprocessedChanges.refreshed.append(contentsOf: reverted)
    }

    /// Forgets every object and unsaved change. The context's objects must not be used
    /// afterwards; fetch them again. The ``undoManager`` forgets every group. A pinned context
    /// moves to the newest query generation.
    public func reset() {
        assertOnQueue()
        undoManager?.removeAllActions()
        for object in Array(registered.values) + graph.discarded { object.leaveContextClearingValues() }
        graph.removeAll()
        unprocessedChanges.removeAll()
        advanceQueryGeneration()
    }

    /// Reloads `object` from its store. With `mergeChanges`, the object's unsaved changes are
    /// kept on top of the store's values; without, they are discarded and the object becomes a
    /// fault that loads the store's values on first use.
    ///
    /// A new object keeps its values. Either way the object's fetched properties fetch afresh
    /// on their next use.
    ///
    /// - Throws: with `mergeChanges`, the error reading the store gave.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        assertOnQueue()
        guard object.managedObjectContext === self else { return }
        object.fetchedPropertyResults = [:]
        guard !pendingInserts.contains(object) else { return }
        graph.dropSnapshot(of: object.objectID)
        if mergeChanges, !object.faulted {
            guard let snapshot = try storedSnapshot(of: object.objectID, fresh: true) else {
                markInaccessible(object)
                unprocessedChanges.deleted.append(object)
                return
            }
            load(object, from: snapshot)
            forgetUnchangedMembers(of: object)
        } else if mergeChanges, !object.pendingMembers.isEmpty {
            // A fault keeps the changes waiting for its unloaded members: they apply to the
            // members it loads afresh.
        } else {
            object.turnIntoFault()
            graph.forgetChanges(of: [object])
            graph.unmarkDeleted(object)
        }
        unprocessedChanges.refreshed.append(object)
    }

    /// Turns every registered object that has no unsaved changes back into a fault, so that
    /// its next use reads its store's current values (a pinned context moves to the newest
    /// query generation first).
    public func refreshAllObjects() throws {
        assertOnQueue()
        advanceQueryGeneration()
        for object in Array(registered.values) where !object.hasChanges {
            try refresh(object, mergeChanges: false)
        }
    }
}
