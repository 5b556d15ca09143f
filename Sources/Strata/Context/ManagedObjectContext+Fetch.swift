extension ManagedObjectContext {
    /// The objects `request` matches, with the context's pending changes taken into account
    /// (unless ``FetchRequest/includesPendingChanges`` is off): matching inserted objects are
    /// included, deleted ones excluded, changed ones judged by their current values. Results
    /// from several stores are merged, sorted and paged as if they came from one.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownEntity``,
    ///   ``ContextError/Code/noStore`` or ``ContextError/Code/wrongClass``; a predicate's
    ///   evaluation error; a store's error.
    /// - Complexity: the stores' work, plus O(*n* log *n*) for *n* results when they are merged
    ///   or judged in memory.
    public func fetch<Result>(_ request: FetchRequest<Result>) throws -> FetchedResults<Result> {
        assertOnQueue()
        return try coordinator.observing(coordinator.operation(.fetch, on: request.entityName)) { outcome in
            let results = try fetchObjects(request)
            outcome.objects = results.count
            return results
        }
    }

    private func fetchObjects<Result>(_ request: FetchRequest<Result>) throws -> FetchedResults<Result> {
        coordinator.registerIfNeeded(Result.self)
        let readsValues = request.includesPropertyValues && request.fetchBatchSize <= 0
        let loadsValues = !request.returnsObjectsAsFaults && readsValues
        for kind in try kinds(of: request) {
            let type = coordinator.objectClass(forEntity: kind)
            guard type is Result.Type else {
                throw ContextError(
                    code: .wrongClass,
                    message: "Objects of entity '\(kind)' are \(type), not \(Result.self); register \(Result.self) "
                        + "for the entity or fetch \(type).")
            }
        }
        let objects =
            readsValues
            ? try matchingObjects(request, loadingValues: loadsValues)
            : try matchingObjectIDs(request).map { object(with: $0) }
        // A batched fetch keeps about one batch of values: its objects fire their faults alone.
        let cohort = objects.count > 1 && request.fetchBatchSize <= 0 ? FetchCohort(objects.map(\.objectID)) : nil
        for (position, object) in objects.enumerated() {
            guard object is Result else {
                throw ContextError(
                    code: .wrongClass,
                    message:
                        "\(object.objectID) is registered in the context as a \(type(of: object)), not \(Result.self)."
                )
            }
            if let cohort {
                object.cohort = cohort
                object.cohortPosition = position
            }
            if loadsValues { try fulfill(object) }
        }
        if !request.relationshipKeyPathsForPrefetching.isEmpty {
            try prefetch(request.relationshipKeyPathsForPrefetching, from: objects.map(\.objectID))
        }
        return FetchedResults(
            context: self, objects: objects, batchSize: max(request.fetchBatchSize, 0), cohort: cohort)
    }

    /// The IDs of the objects `request` matches, in order; as ``fetch(_:)``.
    public func fetchObjectIDs<Result>(_ request: FetchRequest<Result>) throws -> [ObjectID] {
        assertOnQueue()
        return try coordinator.observing(coordinator.operation(.fetch, on: request.entityName)) { outcome in
            let ids = try matchingObjectIDs(request)
            outcome.objects = ids.count
            return ids
        }
    }

    /// How many objects `request` matches; as ``fetch(_:)``.
    public func count<Result>(for request: FetchRequest<Result>) throws -> Int {
        assertOnQueue()
        return try coordinator.observing(coordinator.operation(.count, on: request.entityName)) { outcome in
            let count = try countObjects(request)
            outcome.objects = count
            return count
        }
    }

    private func countObjects<Result>(_ request: FetchRequest<Result>) throws -> Int {
        let plan = try self.plan(request)
        guard let (store, storeRequest) = plan.direct(.count) else { return try mergedObjects(request, plan).count }
        guard case .count(let count) = try reads(of: store).execute(storeRequest) else { return 0 }
        return count
    }

    /// Loads the snapshots of `objectIDs` that are neither cached nor loaded, for a batch: one
    /// ``StoreReading/snapshots(for:)`` call per store. Loading is best effort: an object
    /// that cannot be loaded now reports why when it is used.
    func prefetchSnapshots(for objectIDs: [ObjectID]) {
        var missing: [ObjectID] = []
        for id in objectIDs where registered[id]?.faulted != false && snapshotCache[id] == nil {
            if let cached = cachedSnapshot(of: id) { graph.cache(cached) } else { missing.append(id) }
        }
        for (store, ids) in router.groupedByStore(missing) {
            let snapshots = (try? reads(of: store).snapshots(for: ids)) ?? []
            shareSnapshots(snapshots, from: store)
            for snapshot in snapshots { graph.cache(snapshot) }
        }
    }

    /// The stored snapshot of `objectID`: from the coordinator's shared cache when one is there
    /// and ``stalenessInterval`` accepts its age (and `fresh` is off), else from its store as
    /// the context reads it (in its query generation), which then refreshes the cache (unless
    /// it keeps its snapshots in memory). With `latest`, the store's latest state is read
    /// whatever the context's generation: what a save's conflicts are settled against. `nil`
    /// when the store no longer has the object.
    func storedSnapshot(of objectID: ObjectID, fresh: Bool = false, latest: Bool = false) throws -> Snapshot? {
        if !fresh, let cached = cachedSnapshot(of: objectID) { return cached }
        let store = try router.store(for: objectID)
        let reads = latest ? store : try reads(of: store)
        let readsLatest = reads === store
        let snapshot = try reads.snapshot(for: objectID)
        if let snapshot {
            if readsLatest { shareSnapshots([snapshot], from: store) }
        } else if parent == nil, readsLatest {
            coordinator.rowCache.remove([objectID])
        }
        return snapshot
    }

    /// The coordinator's cached snapshot of `objectID`, if ``stalenessInterval`` accepts its age;
    /// never for a child context, which sees its parent's values instead, nor for a context
    /// reading a query generation.
    private func cachedSnapshot(of objectID: ObjectID) -> Snapshot? {
        guard stalenessInterval != 0, parent == nil, !readsQueryGeneration else { return nil }
        return coordinator.rowCache.snapshot(for: objectID, maximumAge: stalenessInterval < 0 ? nil : stalenessInterval)
    }
}
