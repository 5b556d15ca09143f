import OrderedCollections

/// How a fetch is answered: by one store alone when it can, else by merging every store's
/// candidates with the pending changes in memory.
extension ManagedObjectContext {
    /// A fetch one store can answer alone, exactly as asked.
    struct DirectPlan {
        let store: any IncrementalStore
        let request: StoreFetchRequest

        func storeRequest(_ type: StoreFetchRequest.ResultType) -> StoreFetchRequest {
            var request = request
            request.resultType = type
            return request
        }
    }

    func kinds<Result>(of request: FetchRequest<Result>) throws -> [String] {
        let entity = try entitySchema(named: request.entityName)
        return request.includesSubentities ? [entity.name] + entity.descendantNames : [entity.name]
    }

    private func stores<Result>(for request: FetchRequest<Result>) throws -> [any IncrementalStore] {
        var stores = sources(forEntity: request.entityName)
        if let affected = request.affectedStores, parent == nil {
            stores = stores.filter { store in affected.contains { $0 === store } }
        }
        guard !stores.isEmpty else {
            throw ContextError(
                code: .noStore,
                message: "No store added to the coordinator"
                    + (request.affectedStores == nil ? "" : " among the request's affected stores")
                    + (readsQueryGeneration ? " among those added when the context's query generation was taken" : "")
                    + " holds entity '\(request.entityName)'.")
        }
        return stores
    }

    /// The plan when one store can answer the request as it is: no pending change touches the
    /// entity, and the store evaluates the predicate itself.
    func directPlan<Result>(for request: FetchRequest<Result>) throws -> DirectPlan? {
        let stores = try stores(for: request)
        let kinds = Set(try kinds(of: request))
        guard stores.count == 1, let store = stores.first, !request.sortsAcrossStores,
            !hasPendingChanges(touching: kinds, request),
            request.predicate.map({ store.predicateFeatures.isSuperset(of: $0.requiredFeatures) }) ?? true
        else { return nil }
        return DirectPlan(
            store: store,
            request: StoreFetchRequest(
                entityName: request.entityName, includesSubentities: request.includesSubentities,
                predicate: request.predicate, sortDescriptors: request.sortDescriptors,
                fetchOffset: request.fetchOffset, fetchLimit: request.fetchLimit, resultType: .objectIDs))
    }

    private func hasPendingChanges<Result>(touching kinds: Set<String>, _ request: FetchRequest<Result>) -> Bool {
        guard request.includesPendingChanges else { return false }
        return (pendingInserts.elements + pendingChanges.elements + pendingDeletions.elements).contains {
            kinds.contains($0.entity.name)
        }
    }

    /// The IDs of the objects `request` matches, in order. With `loadingSnapshots`, the
    /// matching objects' snapshots are read with them and kept for their faults; with
    /// `loadingValues` too, a store answering alone has them loaded into their objects at once.
    func matchingObjectIDs<Result>(
        _ request: FetchRequest<Result>, loadingSnapshots: Bool, loadingValues: Bool = false
    ) throws -> [ObjectID] {
        let request = try resolvingKeyPathsAcrossStores(request)
        if let plan = try directPlan(for: request) {
            if loadingSnapshots {
                guard case .snapshots(let snapshots) = try reads(of: plan.store).execute(plan.storeRequest(.snapshots))
                else {
                    return []
                }
                shareSnapshots(snapshots, from: plan.store)
                guard loadingValues else { return snapshots.map(cache) }
                graph.reserveCapacity(forMore: snapshots.count)
                return snapshots.map(adopt)
            }
            guard case .objectIDs(let ids) = try reads(of: plan.store).execute(plan.storeRequest(.objectIDs)) else {
                return []
            }
            return ids
        }
        return try mergedObjects(request).map(\.objectID)
    }

    /// Fetches from every store, adds the pending changes, and judges, sorts and pages the
    /// candidates in memory.
    private func mergedObjects<Result>(_ request: FetchRequest<Result>) throws -> [ManagedObject] {
        let stores = try stores(for: request)
        let kinds = Set(try kinds(of: request))
        let pending = request.includesPendingChanges
        let touched = hasPendingChanges(touching: kinds, request)
        let limit = StoreFetchRequest.effectiveLimit(request.fetchLimit)
        var candidates: OrderedSet<ManagedObject> = []
        var judged: Set<ManagedObject> = []
        for store in stores {
            let native = request.predicate.map { store.predicateFeatures.isSuperset(of: $0.requiredFeatures) } ?? true
            let pageable = native && !touched && !request.sortsAcrossStores
            let storeRequest = StoreFetchRequest(
                entityName: request.entityName, includesSubentities: request.includesSubentities,
                predicate: native ? request.predicate : nil,
                sortDescriptors: request.sortsAcrossStores ? [] : request.sortDescriptors,
                fetchLimit: pageable ? limit.map { $0 + max(request.fetchOffset, 0) } : nil,
                resultType: .snapshots)
            guard case .snapshots(let snapshots) = try reads(of: store).execute(storeRequest) else { continue }
            shareSnapshots(snapshots, from: store)
            for snapshot in snapshots {
                let object = object(with: cache(snapshot))
                candidates.append(object)
                if native { judged.insert(object) }
            }
        }
        if pending {
            for object in pendingChanges where kinds.contains(object.entity.name) {
                judged.remove(object)
                if let store = try? source(for: object.objectID), stores.contains(where: { $0 === store }) {
                    candidates.append(object)
                }
            }
            for object in pendingInserts where kinds.contains(object.entity.name) {
                if let store = try? targetStore(of: object), stores.contains(where: { $0 === store }) {
                    candidates.append(object)
                }
            }
            candidates.removeAll { pendingDeletions.contains($0) }
        }
        var matches = candidates.elements
        if let predicate = request.predicate {
            let unjudged = matches.filter { !judged.contains($0) }
            let accepted = Set(try predicate.filter(unjudged))
            matches = matches.filter { judged.contains($0) || accepted.contains($0) }
        }
        if !request.sortDescriptors.isEmpty { try prefetchSortDestinations(of: request, for: matches) }
        let page = StoreFetchRequest(
            entityName: request.entityName, sortDescriptors: request.sortDescriptors, fetchOffset: request.fetchOffset,
            fetchLimit: request.fetchLimit)
        return Array(try page.sortedPage(of: matches))
    }

    /// Loads `snapshot` into its object, registering the object when it is new to the context,
    /// unless the object is loaded already; returns its ID.
    private func adopt(_ snapshot: Snapshot) -> ObjectID {
        let object = object(with: snapshot.objectID)
        if object.faulted {
            if !snapshotCache.isEmpty { graph.dropSnapshot(of: snapshot.objectID) }
            load(object, from: snapshot)
        }
        return snapshot.objectID
    }

    /// Keeps `snapshot` for the object's fault (unless the object is loaded) and returns its ID.
    private func cache(_ snapshot: Snapshot) -> ObjectID {
        if registered[snapshot.objectID]?.faulted != false { graph.cache(snapshot) }
        return snapshot.objectID
    }
}
