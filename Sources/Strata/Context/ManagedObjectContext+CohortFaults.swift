extension ManagedObjectContext {
    /// Fires the to-many `relationship` fault of `object` together with that of the objects
    /// its fetch returned after it (a ``FetchCohort`` window): their values load in one batch,
    /// their members in one ``StoreReading/relatedObjectIDs(ofEach:relationship:)`` call
    /// per store, and the snapshots of members not loaded yet are read ahead into the
    /// coordinator's row cache. Does nothing for an object no fetch in use returned.
    ///
    /// Best effort: a neighbour whose values cannot load now is left out, and when the batched
    /// read of members fails (a neighbour's record is gone, say), nothing is loaded and the
    /// caller loads `object`'s members alone, reporting its own errors.
    /// A context that always reads the store (``stalenessInterval`` 0) loads each object's
    /// members when it asks for them, alone.
    func loadMembersAlongCohort(of object: ManagedObject, _ relationship: RelationshipDescription) {
        guard let cohort = object.cohort, stalenessInterval != 0 else { return }
        let window = Array(cohort.window(from: object.cohortPosition))
        prefetchSnapshots(for: window)
        var neighbours: [ManagedObject] = []
        for id in window {
            guard let neighbour = registered[id], neighbour.currentMembers[relationship.name] == nil else { continue }
            do { try fulfill(neighbour) } catch { continue }
            neighbours.append(neighbour)
        }
        guard let members = try? loadMembers(relationship.name, of: neighbours) else { return }
        readAheadSnapshots(of: members)
    }

    /// Reads the snapshots of those of `objectIDs` that are neither loaded nor waiting in the
    /// snapshot cache into the coordinator's row cache (at most
    /// ``FetchCohort/memberSnapshotLimit``), where loading them finds them. Best effort: an
    /// object whose snapshot cannot be read reports why when it is used. A context reading a
    /// query generation keeps them in its own snapshot cache instead. A child context, which
    /// reads its parent rather than the row cache, and a context that never accepts cached
    /// snapshots read nothing ahead.
    private func readAheadSnapshots(of objectIDs: [ObjectID]) {
        guard parent == nil, stalenessInterval != 0 else { return }
        var missing: [ObjectID] = []
        for id in objectIDs where registered[id]?.faulted != false && snapshotCache[id] == nil {
            missing.append(id)
            if missing.count == FetchCohort.memberSnapshotLimit { break }
        }
        for (store, ids) in router.groupedByStore(missing) {
            guard let snapshots = try? reads(of: store).snapshots(for: ids) else { continue }
            if readsQueryGeneration {
                for snapshot in snapshots { graph.cache(snapshot) }
            } else {
                shareSnapshots(snapshots, from: store)
            }
        }
    }
}
