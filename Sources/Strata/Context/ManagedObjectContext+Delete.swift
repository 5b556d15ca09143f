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
    /// Deleting a saved object whose values or to-many members are not loaded reads nothing
    /// either: the object is marked deleted at once, and the rules of all the objects deleted so
    /// apply together, reading their rows, their members and the objects the rules change in
    /// one go per store, before anything can see the result (the next read of an object, fetch,
    /// question to the context or save, or the end of the `perform` block). Deleting many
    /// objects one after the other thus costs a few reads, not several per object.
    ///
    /// - Throws: the error loading a relationship's destinations gave; for rules applied
    ///   together, the first call that needs them throws it (a save does), and they are applied
    ///   again then.
    public func delete(_ object: ManagedObject) throws {
        assertOnQueueKeepingDeletes()
        precondition(object.managedObjectContext === self, "\(object.objectID) belongs to another context.")
        guard !object.isMarkedDeleted else { return }
        if appliesRulesLater(deleting: object) {
            markDeleted(object)
            deletesAwaitingRules.append(object)
            return
        }
        try object.willAccessValues()
        markDeleted(object)
        for relationship in object.entity.relationships {
            try applyDeleteRule(of: relationship, deleting: object)
        }
        if object.isDiscarded { graph.discard(object) }
    }

    /// Whether deleting `object` leaves its delete rules to ``applyAwaitingDeleteRules()``: it
    /// is saved, no undo manager records the rules, and applying them now would read its row or
    /// the members of a to-many relationship whose rule changes them.
    private func appliesRulesLater(deleting object: ManagedObject) -> Bool {
        guard undoManager == nil, !object.objectID.isTemporary, !object.isInaccessible,
            !pendingInserts.contains(object)
        else { return false }
        return object.faulted
            || object.entity.relationships.contains { relationship in
                relationship.readsMembersWhenDeleting && object.currentMembers[relationship.name] == nil
            }
    }

    /// Applies, while nothing else observes the context, the delete rules of the objects whose
    /// deletion left them waiting, a batch at a time: the rows of those still faults are read
    /// in one go per store, then the members of their to-many relationships whose rules
    /// nullify or cascade (one read per relationship and store), then the rows of the objects
    /// those rules change; then each object's rules apply as ``delete(_:)`` applies them.
    /// Cascades whose objects are not loaded wait for the next batch. Does nothing while it
    /// runs already.
    ///
    /// - Throws: the error loading an object or its members gave; the objects whose rules are
    ///   not applied yet keep waiting.
    func applyAwaitingDeleteRules() throws {
        guard !deletesAwaitingRules.isEmpty, !isApplyingAwaitingDeleteRules else { return }
        isApplyingAwaitingDeleteRules = true
        defer { isApplyingAwaitingDeleteRules = false }
        while !deletesAwaitingRules.isEmpty {
            let batch = Array(deletesAwaitingRules)
            prefetchSnapshots(for: batch.filter(\.faulted).map(\.objectID))
            for object in batch { try fulfill(object) }
            let keys = Set(
                batch.flatMap { object in object.entity.relationships.filter(\.readsMembersWhenDeleting).map(\.name) })
            for key in keys.sorted() { _ = try loadMembers(key, of: batch) }
            prefetchSnapshots(for: batch.flatMap(changedByRules))
            for (index, object) in batch.enumerated() {
                do {
                    for relationship in object.entity.relationships {
                        try applyDeleteRule(of: relationship, deleting: object)
                    }
                } catch {
                    deletesAwaitingRules.removeFirst(index)
                    throw error
                }
            }
            deletesAwaitingRules.removeFirst(batch.count)
        }
    }

    /// Applies the delete rules awaiting, if any; a failure leaves them waiting for the next
    /// call that needs them (a save throws it).
    func applyAwaitingDeleteRulesIfPossible() {
        do {
            try applyAwaitingDeleteRules()
        } catch {
            coordinator.logger.debug("Delete rules wait after a failed read", metadata: ["error": "\(error)"])
        }
    }

    /// The objects the delete rules of `object` (loaded, with the members of its nullifying and
    /// cascading to-many relationships loaded) load when they apply: the destinations a
    /// cascade deletes, and those whose inverse to-one a nullify empties.
    private func changedByRules(_ object: ManagedObject) -> [ObjectID] {
        object.entity.relationships.flatMap { relationship -> [ObjectID] in
            switch relationship.deleteRule {
            case .cascade: break
            case .nullify:
                guard let inverse = object.inverse(of: relationship), !inverse.isToMany else { return [] }
            case .deny, .noAction: return []
            }
            if relationship.isToMany { return object.currentMembers[relationship.name]?.elements ?? [] }
            return object.currentValue(forKey: relationship.name)?.objectIDValue.map { [$0] } ?? []
        }
    }

    /// Marks `object` deleted without applying delete rules: a new object is discarded, a
    /// saved one is marked for deletion at the next save.
    func markDeleted(_ object: ManagedObject) {
        undoManager?.record(.deletion(object))
        if pendingInserts.contains(object) {
            graph.uninsert(object)
            // An insertion already announced is announced undone.
            if !unprocessedChanges.inserted.remove(object) { unprocessedChanges.deleted.append(object) }
            object.setDiscarded(true)
        } else {
            graph.markDeleted(object)
            unprocessedChanges.deleted.append(object)
        }
        unprocessedChanges.updated.remove(object)
    }

    private func applyDeleteRule(of relationship: RelationshipDescription, deleting object: ManagedObject) throws {
        // The destinations of a to-many relationship load in one batch, not one by one as each
        // is changed or deleted.
        if relationship.readsMembersWhenDeleting {
            let members = try members(of: object, relationship)
            if members.count > 1 { prefetchSnapshots(for: members) }
        }
        switch relationship.deleteRule {
        case .nullify:
            guard let inverse = object.inverse(of: relationship) else { return }
            for destination in try object.destinations(of: relationship) where !destination.isMarkedDeleted {
                try destination.detach(object, from: inverse)
            }
        case .cascade:
            for destination in try object.destinations(of: relationship) where !destination.isMarkedDeleted {
                try delete(destination)
            }
        case .deny, .noAction:
            return
        }
    }
}

extension RelationshipDescription {
    /// Whether deleting an object reads the members of this relationship to apply its rule: a
    /// to-many whose rule nullifies the inverses or cascades.
    fileprivate var readsMembersWhenDeleting: Bool {
        isToMany && (deleteRule == .nullify || deleteRule == .cascade)
    }
}
