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
            object.remapCommittedReferences(mapping)
        }
        graph.reregister(mapping)
        graph.remapSnapshots(mapping)
        childVersions.remap(mapping, forwarding: !children.all.isEmpty)
    }
}
