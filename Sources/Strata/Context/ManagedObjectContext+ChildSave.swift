/// How a context takes in a child context's save, on its own queue, as its own pending changes.
extension ManagedObjectContext {
    /// Applies a child's `changes` all or nothing: inserts with the child's temporary IDs,
    /// updates of attributes and relationships, deletions (the child already applied the delete
    /// rules), after checking that this context did not change any updated or deleted object
    /// since the child read it.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/conflict`` listing every object
    ///   this context changed or deleted since the child read it; nothing is applied.
    func acceptChildSave(_ changes: StoreChangeSet) throws {
        let changes = changes.remapped(childVersions.forwarded)
        try checkChildVersions(changes)
        for change in changes.inserted { try insertFromChild(change) }
        for change in changes.updated { try updateFromChild(change) }
        for deletion in changes.deleted {
            guard let object = registered[deletion.objectID], !object.isDeleted else { continue }
            childVersions.entries[deletion.objectID] = nil
            markDeleted(object)
            if object.isDiscarded { graph.discard(object) }
        }
    }

    private func checkChildVersions(_ changes: StoreChangeSet) throws {
        var conflicts: [StoreError.Conflict] = []
        let expected =
            changes.updated.map { ($0.objectID, $0.expectedVersion) }
            + changes.deleted.map { ($0.objectID, $0.expectedVersion) }
        for (objectID, expectedVersion) in expected {
            let version = try objectForChild(objectID).map(childVersion(of:))
            guard version != expectedVersion else { continue }
            conflicts.append(.init(objectID: objectID, expectedVersion: expectedVersion, storedVersion: version))
        }
        guard !conflicts.isEmpty else { return }
        throw StoreError(
            code: .conflict,
            message: "The parent context\(name.map { " '\($0)'" } ?? "") changed "
                + conflicts.map { "\($0.objectID)" }.joined(separator: ", ") + " after the child context read it.",
            conflicts: conflicts)
    }

    private func insertFromChild(_ change: StoreChangeSet.ObjectChange) throws {
        let entity = try entitySchema(named: change.objectID.entityName)
        let type = coordinator.objectClass(forEntity: entity.name)
        let object = type.init(
            creating: ManagedObject.Creation(entity: entity, objectID: change.objectID, context: self))
        object.becomeNew(
            holding: ManagedObject.slots(of: entity, from: change.values), members: change.toManyRelationships)
        graph.insert(object)
        unprocessedChanges.inserted.append(object)
        undoManager?.record(.insertion(object))
        recordChildSave(of: object, version: 1, keys: change.toManyRelationships.keys)
    }

    private func updateFromChild(_ change: StoreChangeSet.ObjectChange) throws {
        guard let object = try objectForChild(change.objectID) else { return }
        let pushed = ManagedObject.slots(of: object.entity, from: change.values)
        for slot in 0..<object.entity.persistentSlotCount
        where (slot < object.currentValues.count ? object.currentValues[slot] : .null) != pushed[slot] {
            object.setPrimitiveValue(pushed[slot], atSlot: slot)
        }
        for (key, members) in change.toManyRelationships {
            guard let relationship = object.entity.relationshipsByName[key] else { continue }
            let old = try self.members(of: object, relationship)
            guard old != members else { continue }
            object.replaceCurrentMembers(.init(members), forKey: key)
            undoManager?.recordMembers(of: object, key: key, from: .init(old), to: .init(members))
            noteChange(of: object)
        }
        recordChildSave(of: object, version: change.expectedVersion + 1, keys: change.toManyRelationships.keys)
    }
}
