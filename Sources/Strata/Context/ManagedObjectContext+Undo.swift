import OrderedCollections

extension ManagedObjectContext {
    /// Undoes the latest group of changes with the context's ``undoManager``; does nothing
    /// without one. See ``ContextUndoManager/undo()``.
    public func undo() {
        assertOnQueue()
        undoManager?.undo()
    }

    /// Redoes the latest undone group with the context's ``undoManager``; does nothing without
    /// one. See ``ContextUndoManager/redo()``.
    public func redo() {
        assertOnQueue()
        undoManager?.redo()
    }

    /// Reverses the steps of `group` in reverse order (`undoing`), or makes them again in order,
    /// then drops from the changed objects those whose stored values are back at their saved ones.
    func applyUndoGroup(_ group: UndoGroup, undoing: Bool) {
        var touched: Set<ManagedObject> = []
        let order = undoing ? Array(group.steps.indices.reversed()) : Array(group.steps.indices)
        for index in order {
            let step = group.steps[index]
            apply(step, undoing: undoing)
            touched.insert(step.object)
        }
        graph.forgetChanges(
            of: touched.filter { object in
                object.managedObjectContext === self && !object.faulted && !pendingInserts.contains(object)
                    && !pendingDeletions.contains(object) && !object.hasPersistentChanges
            })
    }

    private func apply(_ step: UndoStep, undoing: Bool) {
        switch step {
        case .value(let object, let key, let old, let new):
            guard prepareForUndo(object), let slot = object.entity.slot(of: key) else { return }
            object.setCurrentValue((undoing ? old : new).resolved ?? .null, atSlot: slot)
            noteChange(of: object)
        case .members(let object, let key, let splice):
            guard prepareForUndo(object), let relationship = object.entity.relationshipsByName[key],
                let current = try? members(of: object, relationship),
                let changed = splice.applied(to: current, undoing: undoing)
            else { return }
            object.setCurrentMembers(OrderedSet(changed), forKey: key)
            noteChange(of: object)
        case .insertion(let object):
            if undoing { withdraw(object) } else { restore(object) }
        case .deletion(let object):
            if undoing { restore(object) } else { withdraw(object) }
        }
    }

    /// Whether `object` is this context's and its values are loaded, firing it if it is a fault.
    private func prepareForUndo(_ object: ManagedObject) -> Bool {
        guard object.managedObjectContext === self else { return false }
        if object.faulted { try? fulfill(object) }
        return !object.faulted && !object.isInaccessible
    }

    /// Takes `object` out of the context as a deletion would: a new object leaves it, a saved
    /// one is marked for deletion.
    private func withdraw(_ object: ManagedObject) {
        guard object.managedObjectContext === self, !object.isDeleted else { return }
        if pendingInserts.contains(object) {
            object.setDiscarded(true)
            graph.discard(object)
        } else {
            graph.markDeleted(object)
        }
        unprocessedChanges.updated.remove(object)
        if !unprocessedChanges.inserted.remove(object) { unprocessedChanges.deleted.append(object) }
    }

    /// Brings `object` back into the context: a new object that left it is inserted again, an
    /// object marked for deletion is kept, and one whose deletion was saved is inserted anew
    /// (the next save gives it a new permanent ID).
    private func restore(_ object: ManagedObject) {
        if object.isDiscarded {
            object.setDiscarded(false)
            graph.keep(object)
            insertAgain(object)
        } else if object.managedObjectContext === self {
            guard graph.unmarkDeleted(object) else { return }
        } else if object.managedObjectContext == nil, !object.isInaccessible, registered[object.objectID] == nil {
            object.forgetSavedState()
            insertAgain(object)
        } else {
            return
        }
        if unprocessedChanges.deleted.remove(object) == nil { unprocessedChanges.inserted.append(object) }
    }

    private func insertAgain(_ object: ManagedObject) {
        object.join(self)
        graph.insert(object)
    }
}
