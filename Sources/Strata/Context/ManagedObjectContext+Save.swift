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
    /// assigned store or the first store holding its entity, and gets a permanent ID; the
    /// changes are written all or nothing, across every store they touch (the coordinator's
    /// striped save, ``PersistentStoreCoordinator/save(_:)``, also when the process is killed
    /// mid-save); ``ManagedObject/didSave()`` runs and did-save is posted with the permanent IDs.
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
    ///   several attempts), listing the conflicts of every store: no store is written, and the
    ///   new objects keep their temporary IDs. ``ContextError/Code/constraintConflict``
    ///   when objects clash on a uniqueness constraint and the policy is ``MergePolicy/error``,
    ///   or the clash joins two saved objects, naming the entity, keys, values and objects
    ///   (``ContextError/constraintConflicts``); no store is written. ``StoreError`` with code
    ///   ``StoreError/Code/savePending`` when a save across stores was logged but a store could
    ///   not write its share: the save is decided and the context holds it as saved; the stores
    ///   not yet written were removed from the coordinator and get it when added again. A store's
    ///   own error.
    /// - Complexity: O(*n*) in the number of changed objects, plus the stores' work.
    public func save() throws {
        assertOnQueue()
        try applyAwaitingDeleteRules()
        processPendingChanges()
        guard hasChanges else { return }
        try coordinator.observing(ObservedOperation(kind: .save, entity: nil, storeTypes: savedStoreTypes)) {
            outcome in
            let saved = try savePendingChanges()
            outcome.inserted = saved.inserted.count
            outcome.updated = saved.updated.count
            outcome.deleted = saved.deleted.count
        }
    }

    /// The types of the stores a save of the pending changes writes, as an observed operation
    /// names them; `context` for a child context, which saves into its parent.
    private var savedStoreTypes: String {
        guard parent == nil else { return "context" }
        var entities = Set<String>()
        for pending in [pendingInserts, pendingChanges, pendingDeletions] {
            for object in pending { entities.insert(object.entity.name) }
        }
        return coordinator.observedStoreTypes(ofEntities: entities)
    }

    /// Saves the pending changes, once there are some, and returns the objects it saved.
    private func savePendingChanges() throws -> ObjectChanges {
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
        let plan = try SavePlan(graph, router: router)
        try plan.assignPermanentIDs()
        var saved = ObjectChanges()
        defer {
            if !saved.isEmpty {
                advanceQueryGeneration()
                post(saved, as: .didSave)
            }
        }
        var pending: StoreError?
        if parent == nil, plan.shares.count > 1 {
            do {
                try writeAcrossStores(plan.shares)
            } catch let error as StoreError where error.code == .savePending {
                pending = error
            } catch {
                for unwritten in plan.shares { restoreTemporaryIDs(of: unwritten, in: plan) }
                throw error
            }
        } else {
            for (index, share) in plan.shares.enumerated() {
                do {
                    try write(share)
                } catch {
                    for unwritten in plan.shares[index...] { restoreTemporaryIDs(of: unwritten, in: plan) }
                    throw error
                }
            }
        }
        for share in plan.shares {
            passPermanentIDsToDescendants(of: share)
            saved.inserted.append(contentsOf: share.inserted)
            saved.updated.append(contentsOf: share.updated)
            saved.deleted.append(contentsOf: share.deleted)
        }
        discardUnsavedNewDeletions()
        graph.removeAllChanges()
        if let pending { throw pending }
        return saved
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
        try settlingConflicts(in: [share]) {
            if share.store === parentStore {
                // The parent validates the changes when it saves them to its stores.
                try share.store.save(share.changeSet())
            } else {
                let history = StoreChangeSet.HistoryInfo(author: transactionAuthor, contextName: name)
                try coordinator.save(share.changeSet(history: history), to: share.store)
            }
        }
        markSaved(share)
    }

    /// Writes the shares of several stores all or nothing (the coordinator's striped save) and,
    /// when it succeeds, makes their objects' state the saved one.
    ///
    /// A save the coordinator logged but could not write to every store (``StoreError/Code/savePending``)
    /// is decided: its objects' state becomes the saved one too, and the error is rethrown.
    private func writeAcrossStores(_ shares: [SavePlan.Share]) throws {
        do {
            try settlingConflicts(in: shares) {
                let history = StoreChangeSet.HistoryInfo(author: transactionAuthor, contextName: name)
                try coordinator.save(shares.map { (store: $0.store, changes: $0.changeSet(history: history)) })
            }
        } catch let error as StoreError where error.code == .savePending {
            for share in shares { markSaved(share) }
            throw error
        }
        for share in shares { markSaved(share) }
    }

    /// Runs `write` until it meets no conflict the merge policy can settle in `shares`.
    private func settlingConflicts(in shares: [SavePlan.Share], _ write: () throws -> Void) throws {
        var attempts = 0
        while true {
            do {
                try write()
                return
            } catch let error as StoreError where error.code == .conflict {
                attempts += 1
                guard attempts <= Self.conflictRetries, try shares.allSatisfy({ try settle(error.conflicts, in: $0) })
                else {
                    recordConflicts(error.conflicts.count, in: shares, retried: false)
                    throw mergeConflict(error, in: shares)
                }
                recordConflicts(error.conflicts.count, in: shares, retried: true)
                coordinator.logger.notice(
                    "Save conflict settled by the merge policy; saving again",
                    metadata: [
                        "store.type": "\(shares.map(\.store.typeName).joined(separator: ","))",
                        "store.identifier": "\(shares.map(\.store.identifier).joined(separator: ","))",
                        "conflicts": "\(error.conflicts.count)", "attempt": "\(attempts)",
                    ])
            } catch let error as StoreError where error.code == .constraintConflict {
                attempts += 1
                guard attempts <= Self.conflictRetries,
                    try shares.allSatisfy({ share in
                        try mergeClashes(
                            shares.count == 1
                                ? error.constraintConflicts
                                : error.constraintConflicts.filter {
                                    $0.objectIDs.first?.storeIdentifier == share.store.identifier
                                },
                            in: share)
                    })
                else {
                    recordConflicts(error.constraintConflicts.count, in: shares, retried: false)
                    throw ContextError(
                        code: .constraintConflict, message: error.message,
                        constraintConflicts: error.constraintConflicts, underlying: error)
                }
                recordConflicts(error.constraintConflicts.count, in: shares, retried: true)
                coordinator.logger.notice(
                    "Uniqueness-constraint conflict merged by the merge policy; saving again",
                    metadata: [
                        "store.type": "\(shares.map(\.store.typeName).joined(separator: ","))",
                        "store.identifier": "\(shares.map(\.store.identifier).joined(separator: ","))",
                        "conflicts": "\(error.constraintConflicts.count)", "attempt": "\(attempts)",
                    ])
            }
        }
    }

    /// Tells the coordinator's observer that saving `shares` met `count` conflicts.
    private func recordConflicts(_ count: Int, in shares: [SavePlan.Share], retried: Bool) {
        coordinator.record(
            .saveConflicts(
                storeTypes: ObservedOperation.storeTypes(shares.map(\.store.typeName)), count: count, retried: retried))
    }

    /// Gives the new objects of the unwritten `share` their temporary IDs back, noting as
    /// changed the saved objects that refer to them (``SavePlan/restoreTemporaryIDs(of:)``).
    private func restoreTemporaryIDs(of share: SavePlan.Share, in plan: SavePlan) {
        for object in plan.restoreTemporaryIDs(of: share) { noteChange(of: object) }
    }

    /// Makes the state of the objects `share` wrote the saved one.
    private func markSaved(_ share: SavePlan.Share) {
        // The coordinator's save made the row cache forget the saved and conflicting objects.
        let saved = share.inserted + share.updated
        graph.settleSaved(saved)
        for object in saved {
            object.becomeSaved()
            object.didSave()
        }
        for object in share.deleted {
            graph.remove(object)
            object.didSave()
            object.leaveContext()
        }
    }

    /// New objects deleted before they were ever saved leave the context.
    private func discardUnsavedNewDeletions() {
        for object in pendingDeletions where object.objectID.isTemporary {
            graph.remove(object)
            object.leaveContext()
        }
    }

    private func mergeConflict(_ error: StoreError, in shares: [SavePlan.Share]) -> ContextError {
        let objects = Dictionary(
            shares.flatMap { $0.inserted + $0.updated + $0.deleted }.map { ($0.objectID, $0) },
            uniquingKeysWith: { a, _ in a })
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
            message: "The save met newer changes in the \(shares.map(\.store.typeName).joined(separator: ", ")) "
                + (shares.count == 1 ? "store: " : "stores: ")
                + list.joined(separator: "; ") + ".",
            conflicts: conflicts, underlying: error)
    }
}

extension ManagedObjectContext {
    /// Makes the next save put the new `object` in `store` instead of the first store that holds
    /// its entity. The save fails with ``ContextError/Code/noStore`` when `store`'s configuration
    /// lacks the entity.
    public func assign(_ object: ManagedObject, to store: any IncrementalStore) {
        assertOnQueue()
        object.assign(to: store)
    }
}
