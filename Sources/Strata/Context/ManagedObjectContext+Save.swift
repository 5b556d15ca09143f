extension ManagedObjectContext {
    /// Whether the context has unsaved inserts, changes or deletions.
    public var hasChanges: Bool {
        assertOnQueue()
        return !pendingInserts.isEmpty || !pendingDeletions.isEmpty || !pendingChanges.isEmpty
    }

    /// The objects inserted since the last save.
    public var insertedObjects: Set<ManagedObject> {
        assertOnQueue()
        return Set(pendingInserts)
    }

    /// The saved objects changed since the last save (deleted ones excepted).
    public var updatedObjects: Set<ManagedObject> {
        assertOnQueue()
        return Set(pendingChanges.filter { $0.isUpdated })
    }

    /// The objects marked for deletion since the last save.
    public var deletedObjects: Set<ManagedObject> {
        assertOnQueue()
        return Set(pendingDeletions)
    }

    /// Writes the pending inserts, changes and deletions to the stores.
    ///
    /// In order: objects-did-change is posted, then will-save, and every object's
    /// ``ManagedObject/willSave()`` runs; every inserted, changed and deleted object is
    /// validated and *all* failures are reported together; each new object is placed in its
    /// assigned store or the first store holding its entity, and gets a permanent ID; each
    /// store's share is written all or nothing; ``ManagedObject/didSave()`` runs and did-save
    /// is posted with the permanent IDs.
    ///
    /// When a store holds a newer version of an object, ``mergePolicy`` settles the conflict
    /// and the store's share is written again (see ``MergePolicy``). When the save would leave
    /// two objects holding the same values of a uniqueness constraint's keys, the policy merges
    /// them into one, as Core Data's upsert does (see ``MergePolicy``), and the share is written
    /// again.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/validation``,
    ///   ``ContextError/Code/noStore``, ``ContextError/Code/crossStoreRelationship`` (nothing is
    ///   written), or ``ContextError/Code/mergeConflict`` when a store holds a newer version of
    ///   an object and the policy is ``MergePolicy/error`` (or the conflict persists after
    ///   several attempts): that store is not written, and its new objects keep their temporary
    ///   IDs; stores written before it stay written. ``ContextError/Code/constraintConflict``
    ///   when objects clash on a uniqueness constraint and the policy is ``MergePolicy/error``,
    ///   or the clash joins two saved objects, naming the entity, keys, values and objects
    ///   (``ContextError/constraintConflicts``); that store is not written. A store's own error.
    /// - Complexity: O(*n*) in the number of changed objects, plus the stores' work.
    public func save() throws {
        assertOnQueue()
        processPendingChanges()
        guard hasChanges else { return }
        var willSave = ObjectChanges()
        willSave.inserted = pendingInserts.elements
        willSave.updated = pendingChanges.filter { $0.isUpdated }
        willSave.deleted = pendingDeletions.elements
        post(willSave, as: .willSave)
        for object in pendingObjects { object.willSave() }
        processPendingChanges()
        try loadObjectsWaitingForMembers()
        try updateDerivedAttributes()
        try validatePendingChanges()
        let plan = try SavePlan(context: self)
        try plan.assignPermanentIDs()
        var saved = ObjectChanges()
        defer {
            if !saved.isEmpty {
                advanceQueryGeneration()
                post(saved, as: .didSave)
            }
        }
        for (index, share) in plan.shares.enumerated() {
            do {
                try write(share)
                passPermanentIDsToDescendants(of: share)
            } catch {
                for unwritten in plan.shares[index...] { plan.restoreTemporaryIDs(of: unwritten) }
                throw error
            }
            saved.inserted.append(contentsOf: share.inserted)
            saved.updated.append(contentsOf: share.updated)
            saved.deleted.append(contentsOf: share.deleted)
        }
        discardUnsavedNewDeletions()
        pendingChanges.removeAll()
    }

    /// The inserted, changed and deleted objects, each once, in that order.
    private var pendingObjects: [ManagedObject] {
        pendingInserts.elements + pendingChanges.filter { !pendingInserts.contains($0) }
            + pendingDeletions.filter { !pendingInserts.contains($0) && !pendingChanges.contains($0) }
    }

    private func validatePendingChanges() throws {
        var errors: [ValidationError] = []
        func collect(_ object: ManagedObject, _ validate: () throws -> Void) {
            do {
                try validate()
            } catch let error as ContextError where error.code == .validation {
                errors += error.validationErrors
            } catch {
                errors.append(object.custom(error, key: nil))
            }
        }
        for object in pendingInserts { collect(object) { try object.validateForInsert() } }
        for object in pendingChanges where object.isUpdated { collect(object) { try object.validateForUpdate() } }
        for object in pendingDeletions { collect(object) { try object.validateForDelete() } }
        guard !errors.isEmpty else { return }
        let count = errors.count == 1 ? "1 validation error" : "\(errors.count) validation errors"
        throw ContextError(
            code: .validation,
            message: "The save failed with \(count): " + errors.map(\.message).joined(separator: " "),
            validationErrors: errors)
    }

    /// Writes one store's share and, when it succeeds, makes its objects' state the saved one.
    private func write(_ share: SavePlan.Share) throws {
        var attempts = 0
        while true {
            do {
                if share.store === parentStore {
                    // The parent validates the changes when it saves them to its stores.
                    try share.store.save(share.changeSet())
                } else {
                    let history = StoreChangeSet.HistoryInfo(author: transactionAuthor, contextName: name)
                    try coordinator.save(share.changeSet(history: history), to: share.store)
                }
                break
            } catch let error as StoreError where error.code == .conflict {
                attempts += 1
                guard attempts <= Self.conflictRetries, try settle(error.conflicts, in: share) else {
                    throw mergeConflict(error, in: share)
                }
                coordinator.logger.notice(
                    "Save conflict settled by the merge policy; saving again",
                    metadata: [
                        "store.type": "\(share.store.typeName)", "store.identifier": "\(share.store.identifier)",
                        "conflicts": "\(error.conflicts.count)", "attempt": "\(attempts)",
                    ])
            } catch let error as StoreError where error.code == .constraintConflict {
                attempts += 1
                guard attempts <= Self.conflictRetries, try mergeClashes(error.constraintConflicts, in: share) else {
                    throw ContextError(
                        code: .constraintConflict, message: error.message,
                        constraintConflicts: error.constraintConflicts, underlying: error)
                }
                coordinator.logger.notice(
                    "Uniqueness-constraint conflict merged by the merge policy; saving again",
                    metadata: [
                        "store.type": "\(share.store.typeName)", "store.identifier": "\(share.store.identifier)",
                        "conflicts": "\(error.constraintConflicts.count)", "attempt": "\(attempts)",
                    ])
            }
        }
        // The coordinator's save made the row cache forget the saved and conflicting objects.
        // Removed from the pending sets all at once: removing from an ordered set one by one
        // moves its later members each time, which made large saves quadratic.
        let saved = share.inserted + share.updated
        pendingInserts.subtract(saved)
        pendingChanges.subtract(saved)
        for object in saved {
            object.committedVersion += 1
            object.committedValues = object.currentValues
            for (key, members) in object.currentMembers { object.committedMembers[key] = members }
            snapshotCache[object.objectID] = nil
            object.didSave()
        }
        pendingDeletions.subtract(share.deleted)
        pendingChanges.subtract(share.deleted)
        for object in share.deleted {
            registered[object.objectID] = nil
            snapshotCache[object.objectID] = nil
            object.didSave()
            object.managedObjectContext = nil
        }
    }

    /// New objects deleted before they were ever saved leave the context.
    private func discardUnsavedNewDeletions() {
        for object in pendingDeletions where object.objectID.isTemporary {
            pendingDeletions.remove(object)
            registered[object.objectID] = nil
            object.managedObjectContext = nil
        }
    }

    private func mergeConflict(_ error: StoreError, in share: SavePlan.Share) -> ContextError {
        let objects = Dictionary(
            (share.inserted + share.updated + share.deleted).map { ($0.objectID, $0) }, uniquingKeysWith: { a, _ in a })
        let conflicts = error.conflicts.map { conflict in
            let keys = objects[conflict.objectID].map { object in
                (Array(object.changedValuesIgnoringFaults().keys) + object.changedMemberKeys).sorted()
            }
            return ContextError.MergeConflict(
                objectID: conflict.objectID, cachedVersion: conflict.expectedVersion,
                storedVersion: conflict.storedVersion, changedKeys: keys ?? [])
        }
        let list = conflicts.map { conflict in
            let stored = conflict.storedVersion.map { "version \($0)" } ?? "no longer there"
            return "\(conflict.objectID) (this context has version \(conflict.cachedVersion), the store \(stored); "
                + "changed: \(conflict.changedKeys.joined(separator: ", ")))"
        }
        return ContextError(
            code: .mergeConflict,
            message: "The save met newer changes in the \(share.store.typeName) store: "
                + list.joined(separator: "; ") + ".",
            conflicts: conflicts, underlying: error)
    }
}
