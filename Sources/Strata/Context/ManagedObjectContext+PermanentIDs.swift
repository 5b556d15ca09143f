/// How child contexts learn the permanent IDs their root context's save gave new objects.
extension ManagedObjectContext {
    /// After `share` was written, tells every descendant context the permanent IDs its new
    /// objects got, each on the descendant's own queue (queued before the did-save that
    /// follows, so a descendant's merge of that save already knows them).
    func passPermanentIDsToDescendants(of share: SavePlan.Share) {
        guard !share.temporaryIDs.isEmpty else { return }
        let mapping = Dictionary(
            zip(share.temporaryIDs, share.inserted.map(\.objectID)), uniquingKeysWith: { first, _ in first })
        childVersions.remap(mapping, forwarding: !children.all.isEmpty)
        for descendant in children.descendants {
            descendant.queue.async { descendant.adoptPermanentIDs(mapping) }
        }
    }

    /// Replaces temporary IDs with the permanent ones in `mapping`: in the registered objects,
    /// their values as loaded and now, the snapshots kept for faults, and the versions handed
    /// to children.
    func adoptPermanentIDs(_ mapping: [ObjectID: ObjectID]) {
        assertOnQueue()
        for object in registered.values where !object.faulted || !object.pendingMembers.isEmpty {
            object.remapReferences(mapping)
            object.committedValues = object.committedValues.remapped(mapping)
            for (key, members) in object.committedMembers where members.contains(where: { mapping[$0] != nil }) {
                object.committedMembers[key] = .init(members.map { mapping[$0] ?? $0 })
            }
        }
        reregister(mapping)
        var cache: [ObjectID: Snapshot] = [:]
        for (id, snapshot) in snapshotCache {
            let newID = mapping[id] ?? id
            cache[newID] = Snapshot(
                objectID: newID, values: snapshot.values.remapped(mapping), version: snapshot.version)
        }
        snapshotCache = cache
        childVersions.remap(mapping, forwarding: !children.all.isEmpty)
    }

    /// Registers the objects under the new IDs `mapping` gives them. When most registered
    /// objects get one (a save of many new objects), the registry is built afresh: removing
    /// entries one by one from a large dictionary costs more than inserting them all again.
    func reregister(_ mapping: [ObjectID: ObjectID]) {
        if mapping.count * 2 >= registered.count {
            var renamed: [ObjectID: ManagedObject] = [:]
            renamed.reserveCapacity(registered.count)
            for object in registered.values {
                if let new = mapping[object.objectID] { object.objectID = new }
                renamed[object.objectID] = object
            }
            registered = renamed
            return
        }
        for (old, new) in mapping {
            guard let object = registered.removeValue(forKey: old) else { continue }
            object.objectID = new
            registered[new] = object
        }
    }
}
