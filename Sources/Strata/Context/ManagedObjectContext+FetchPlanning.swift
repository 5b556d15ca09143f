import OrderedCollections

/// How a context carries out the plan its router makes for a fetch (``StoreRouter``): the one
/// store's answer, or every store's candidates merged with the pending changes in memory.
extension ManagedObjectContext {
    func kinds<Result>(of request: FetchRequest<Result>) throws -> [String] {
        let entity = try entitySchema(named: request.entityName)
        return entity.names(includingSubentities: request.includesSubentities)
    }

    /// The router's plan for `request`, seeing this context's pending changes.
    func plan<Result>(_ request: FetchRequest<Result>) throws -> FetchPlan {
        try router.plan(
            request, of: entitySchema(named: request.entityName),
            touchingPendingChanges: { kinds in
                (pendingInserts.elements + pendingChanges.elements + pendingDeletions.elements).contains {
                    kinds.contains($0.entity.name)
                }
            },
            destinations: { destinations in try matchingObjectIDs(destinations) })
    }

    /// The IDs of the objects `request` matches, in order. With `keepingSnapshots`, their
    /// snapshots are read with them and kept for the faults of those registered or to come.
    func matchingObjectIDs<Result>(_ request: FetchRequest<Result>, keepingSnapshots: Bool = false) throws -> [ObjectID]
    {
        let plan = try self.plan(request)
        if !keepingSnapshots, let (store, storeRequest) = plan.direct(.objectIDs) {
            guard case .objectIDs(let ids) = try reads(of: store).execute(storeRequest) else { return [] }
            return ids
        }
        guard keepingSnapshots, let (store, storeRequest) = plan.direct(.snapshots) else {
            return try mergedObjects(request, plan).map(\.objectID)
        }
        guard case .snapshots(let snapshots) = try reads(of: store).execute(storeRequest) else { return [] }
        shareSnapshots(snapshots, from: store)
        return snapshots.map { snapshot in
            if registered[snapshot.objectID]?.faulted != false { graph.cache(snapshot) }
            return snapshot.objectID
        }
    }

    /// The objects `request` matches, in order, registered in the context. Their snapshots are
    /// read with them and kept for their faults; with `loadingValues`, a store answering alone
    /// has them loaded into their objects at once.
    func matchingObjects<Result>(_ request: FetchRequest<Result>, loadingValues: Bool) throws -> [ManagedObject] {
        let plan = try self.plan(request)
        guard let (store, storeRequest) = plan.direct(.snapshots) else { return try mergedObjects(request, plan) }
        guard case .snapshots(let snapshots) = try reads(of: store).execute(storeRequest) else { return [] }
        shareSnapshots(snapshots, from: store)
        graph.reserveCapacity(forMore: snapshots.count)
        return loadingValues ? snapshots.map(adopt) : snapshots.map(cache)
    }

    /// Reads every store's candidates as `plan` says, adds the pending changes, and judges,
    /// sorts and pages them in memory.
    func mergedObjects<Result>(_ request: FetchRequest<Result>, _ plan: FetchPlan) throws -> [ManagedObject] {
        guard case .merged(let legs) = plan.route else { return [] }
        var candidates: OrderedSet<ManagedObject> = []
        var judged: Set<ManagedObject> = []
        for leg in legs {
            guard case .snapshots(let snapshots) = try reads(of: leg.store).execute(leg.request) else { continue }
            shareSnapshots(snapshots, from: leg.store)
            for snapshot in snapshots {
                let object = cache(snapshot)
                candidates.append(object)
                if leg.judged { judged.insert(object) }
            }
        }
        if request.includesPendingChanges {
            let router = router
            let stores = plan.stores
            for object in pendingChanges where plan.kinds.contains(object.entity.name) {
                judged.remove(object)
                if let store = try? router.store(for: object.objectID), stores.contains(where: { $0 === store }) {
                    candidates.append(object)
                }
            }
            for object in pendingInserts where plan.kinds.contains(object.entity.name) {
                if let store = try? router.placement(of: object), stores.contains(where: { $0 === store }) {
                    candidates.append(object)
                }
            }
            candidates.removeAll { pendingDeletions.contains($0) }
        }
        var matches = candidates.elements
        if let predicate = plan.predicate {
            let unjudged = matches.filter { !judged.contains($0) }
            let accepted = Set(try predicate.filter(unjudged))
            matches = matches.filter { judged.contains($0) || accepted.contains($0) }
        }
        if !request.sortDescriptors.isEmpty, !plan.sortPathsAcrossStores.isEmpty {
            // The first object along each sort key path leading across stores loads in one
            // batch per store, so that the sort reads them without a store read each.
            try prefetch(plan.sortPathsAcrossStores, from: matches.filter { !$0.objectID.isTemporary }.map(\.objectID))
        }
        let page = StoreFetchRequest(
            entityName: request.entityName, sortDescriptors: request.sortDescriptors, fetchOffset: request.fetchOffset,
            fetchLimit: request.fetchLimit)
        return Array(try page.sortedPage(of: matches))
    }

    /// Loads `snapshot` into its object, registering the object when it is new to the context,
    /// unless the object is loaded already.
    private func adopt(_ snapshot: Snapshot) -> ManagedObject {
        let object = object(with: snapshot.objectID)
        if object.faulted {
            if !snapshotCache.isEmpty { graph.dropSnapshot(of: snapshot.objectID) }
            load(object, from: snapshot)
        }
        return object
    }

    /// Keeps `snapshot` for its object's fault, registering the object when it is new to the
    /// context, unless the object is loaded already.
    private func cache(_ snapshot: Snapshot) -> ManagedObject {
        let object = object(with: snapshot.objectID)
        if object.faulted { graph.cache(snapshot) }
        return object
    }
}
