/// How a save settles uniqueness-constraint conflicts: Core Data's upsert. The objects holding
/// the same values of a constraint's keys become one object, which keeps the saved object's
/// identity when the store already has one; the others leave the context.
extension ManagedObjectContext {
    /// Merges the objects of each of `conflicts` in `share` by ``mergePolicy``, so that the
    /// share can be written again; `false` when the policy is ``MergePolicy/error`` or a
    /// conflict joins two saved objects (merging them would delete one and lose what refers
    /// to it in the store), and then nothing is changed.
    func mergeClashes(_ conflicts: [ConstraintConflict], in share: SavePlan.Share) throws -> Bool {
        guard mergePolicy != .error else { return false }
        let inserted = Set(share.inserted.map(ObjectIdentifier.init))
        var groups: [(conflict: ConstraintConflict, objects: [ManagedObject])] = []
        var claimed: Set<ObjectID> = []
        for conflict in conflicts {
            let objects = conflict.objectIDs.compactMap { registered[$0] }
            guard objects.count == conflict.objectIDs.count else { return false }
            let saved = objects.filter { !inserted.contains(ObjectIdentifier($0)) }.count
            guard saved + (conflict.storedObjectID == nil ? 0 : 1) <= 1 else { return false }
            // An object in two conflicts is merged for the first; the store reports what is
            // left when the share is written again.
            guard claimed.isDisjoint(with: conflict.objectIDs) else { continue }
            claimed.formUnion(conflict.objectIDs)
            groups.append((conflict, objects))
        }
        for (conflict, objects) in groups {
            try merge(objects, storedObjectID: conflict.storedObjectID, inserted: inserted, in: share)
        }
        processPendingChanges()
        // The merged objects hold other members and values now: their derived attributes follow.
        try updateDerivedAttributes()
        return true
    }

    /// Makes `objects` (in save order) one object: the registered saved object of
    /// `storedObjectID` when there is one, else the first new object, which takes
    /// `storedObjectID` as its identity when the store has it; else the saved object among
    /// them, or the first.
    private func merge(
        _ objects: [ManagedObject], storedObjectID: ObjectID?, inserted: Set<ObjectIdentifier>,
        in share: SavePlan.Share
    ) throws {
        let survivor: ManagedObject
        if let storedObjectID, let existing = registered[storedObjectID] {
            try fulfill(existing)
            survivor = existing
        } else if let storedObjectID {
            guard let first = objects.first,
                let stored = try storedSnapshot(of: storedObjectID, fresh: true, latest: true)
            else { return }
            try adopt(stored, as: first, in: share)
            survivor = first
        } else {
            survivor = objects.first { !inserted.contains(ObjectIdentifier($0)) } ?? objects[0]
        }
        let winner: ManagedObject? =
            switch mergePolicy {
            case .mergeByPropertyObjectTrump, .overwrite: objects.last
            default: nil
            }
        for object in objects where object !== survivor {
            try absorb(object, into: survivor, takingValues: object === winner, from: share)
        }
        if !share.updated.contains(where: { $0 === survivor }) && !share.inserted.contains(where: { $0 === survivor }) {
            share.updated.append(survivor)
        }
    }

    /// Gives the new `object` the identity of the saved object `stored` stands for: it becomes
    /// a change of that object, keeping the keys it set under the object-trumping policies and
    /// taking the store's values under the others; its to-many members join the saved ones.
    private func adopt(_ stored: Snapshot, as object: ManagedObject, in share: SavePlan.Share) throws {
        guard let index = share.inserted.firstIndex(where: { $0 === object }) else { return }
        share.inserted.remove(at: index)
        if index < share.temporaryIDs.count { share.temporaryIDs.remove(at: index) }
        let mapping = [object.objectID: stored.objectID]
        for other in registered.values where !other.faulted { other.remapReferences(mapping) }
        graph.reregister(mapping)
        let current = object.currentValues
        load(object, from: stored)
        switch mergePolicy {
        case .overwrite: object.replaceCurrentValues(current)
        case .mergeByPropertyObjectTrump: break
        default: object.revertPersistentValues()
        }
        let store = try router.store(for: stored.objectID)
        for relationship in object.entity.relationships where relationship.isToMany && !relationship.isTransient {
            let saved = try store.relatedObjectIDs(of: stored.objectID, relationship: relationship.name)
            let own = object.currentMembers[relationship.name]?.elements ?? []
            object.setMembers(committed: .init(saved), current: .init(saved + own), forKey: relationship.name)
        }
        graph.uninsert(object)
        noteChange(of: object)
        share.updated.append(object)
    }

    /// Moves what refers to the new `object` over to `survivor` and takes `object` out of the
    /// save and the context; with `takingValues`, `survivor` takes its attributes and to-one
    /// relationships first.
    private func absorb(
        _ object: ManagedObject, into survivor: ManagedObject, takingValues: Bool, from share: SavePlan.Share
    ) throws {
        let entity = object.entity
        // Under the object-trumping policy the survivor takes the keys the new object set (all
        // it holds but nulls); under overwriting, all of them.
        let set = Set(object.changedSlots(in: 0..<entity.persistentSlotCount).map { entity.slotNames[$0] })
        var toOnes: [(key: String, target: ManagedObject?)] = []
        for relationship in entity.relationships where !relationship.isTransient {
            if relationship.isToMany {
                // The object is new: its members are all in memory, and the store has none.
                let members = (object.currentMembers[relationship.name]?.elements ?? []).map { self.object(with: $0) }
                for member in members {
                    if survivor.entity.relationshipsByName[relationship.name] != nil {
                        try survivor.addObject(member, forKey: relationship.name)
                    } else {
                        try object.removeObject(member, forKey: relationship.name)
                    }
                }
            } else {
                toOnes.append((relationship.name, try object.object(forKey: relationship.name)))
                try object.setObject(nil, forKey: relationship.name)
            }
        }
        if takingValues {
            let takes = { (key: String) in self.mergePolicy == .overwrite || set.contains(key) }
            for attribute in entity.attributes
            where !attribute.isTransient && attribute.derivationExpression == nil
                && survivor.entity.attributesByName[attribute.name] != nil && takes(attribute.name)
            {
                try survivor.setValue(object.value(forKey: attribute.name), forKey: attribute.name)
            }
            for (key, target) in toOnes where survivor.entity.relationshipsByName[key] != nil && takes(key) {
                try survivor.setObject(target, forKey: key)
            }
        }
        let mapping = [object.objectID: survivor.objectID]
        for other in registered.values where !other.faulted && other !== object {
            guard other.remapReferences(mapping), !pendingChanges.contains(other) else { continue }
            noteChange(of: other)
        }
        if let index = share.inserted.firstIndex(where: { $0 === object }) {
            share.inserted.remove(at: index)
            if index < share.temporaryIDs.count { share.temporaryIDs.remove(at: index) }
        }
        share.updated.removeAll { $0 === object }
        graph.remove(object)
        unprocessedChanges.deleted.append(object)
        object.leaveContext()
    }
}
