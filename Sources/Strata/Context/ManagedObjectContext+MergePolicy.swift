extension ManagedObjectContext {
    /// How many times a save settles conflicts in one store and writes again before it gives
    /// up with ``ContextError/Code/mergeConflict`` (other writers keep winning the race).
    static let conflictRetries = 8

    /// Settles each of `conflicts` in `share` by ``mergePolicy``, so that the share can be
    /// written again; `false` when the policy is ``MergePolicy/error``.
    func settle(_ conflicts: [StoreError.Conflict], in share: SavePlan.Share) throws -> Bool {
        guard mergePolicy != .error else { return false }
        let objects = Dictionary(
            (share.updated + share.deleted).map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
        for conflict in conflicts {
            guard let object = objects[conflict.objectID] else { continue }
            let isDeletion = share.deleted.contains(object)
            guard let stored = try storedSnapshot(of: object.objectID, fresh: true, latest: true) else {
                share.updated.removeAll { $0 === object }
                share.deleted.removeAll { $0 === object }
                dropVanished(object)
                continue
            }
            switch mergePolicy {
            case .rollback:
                share.updated.removeAll { $0 === object }
                share.deleted.removeAll { $0 === object }
                try refresh(object, mergeChanges: false)
                load(object, from: stored)
            case .mergeByPropertyObjectTrump where !isDeletion:
                load(object, from: stored)
                forgetUnchangedMembers(of: object)
                object.observation?.announceChangeOfEveryProperty(of: object)
            case .mergeByPropertyStoreTrump where !isDeletion:
                try mergeStoreTrump(object, with: stored, from: share.store)
                object.observation?.announceChangeOfEveryProperty(of: object)
            default:
                // Overwriting, and deleting under the other policies: the context's state wins whole.
                object.adoptStoredVersion(stored.version)
            }
        }
        processPendingChanges()
        return true
    }

    /// Takes the store's values for every key the store changed since the context read the
    /// object, keeps the context's changes to the others.
    private func mergeStoreTrump(
        _ object: ManagedObject, with stored: Snapshot, from store: any IncrementalStore
    ) throws {
        let storedSlots = ManagedObject.slots(of: object.entity, from: stored.values)
        let committed = object.committedValues
        let kept = object.changedSlots().filter { slot in
            slot >= object.entity.persistentSlotCount
                || storedSlots[slot] == (slot < committed.count ? committed[slot] : .null)
        }
        var current = storedSlots
        for slot in kept { current[slot] = object.currentValues[slot] }
        object.takeStoredValues(storedSlots, version: stored.version, current: current)
        for key in object.changedMemberKeys {
            let members = try store.relatedObjectIDs(of: object.objectID, relationship: key)
            guard Set(members) != Set(object.committedMembers[key]?.elements ?? []) else { continue }
            // Setting the store's members undoes the context's change on the inverse side too.
            try object.setObjects(members.map { try self.object(withStored: $0) }, forKey: key)
            object.setCommittedMembers(.init(members), forKey: key)
        }
        forgetUnchangedMembers(of: object)
    }

    /// Drops the loaded members of to-many relationships the context did not change, so that
    /// they load the store's members when next used.
    func forgetUnchangedMembers(of object: ManagedObject) {
        for (key, members) in object.currentMembers where members == object.committedMembers[key] {
            object.setMembers(committed: nil, current: nil, forKey: key)
        }
    }

    /// An object whose record the store no longer has is deleted here too, and leaves the context.
    func dropVanished(_ object: ManagedObject) {
        markInaccessible(object)
        graph.remove(object)
        unprocessedChanges.deleted.append(object)
        object.leaveContext()
    }
}
