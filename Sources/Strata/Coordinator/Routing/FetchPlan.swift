/// How a fetch is answered, as ``StoreRouter`` plans it once: by one store alone, exactly as
/// asked, or by every store holding the entity, their candidates merged with the context's
/// pending changes and judged, sorted and paged in memory.
struct FetchPlan {
    /// Which stores answer, and how.
    enum Route {
        /// One store answers the request alone, exactly as asked.
        case direct(any IncrementalStore, StoreFetchRequest)
        /// Each store gives its candidates; the context merges them.
        case merged([Leg])
    }

    /// One store's part of a merged fetch.
    struct Leg {
        let store: any IncrementalStore
        /// What the store is asked: snapshots, filtered and paged by the store where it can.
        let request: StoreFetchRequest
        /// Whether the store judged the predicate, so that its candidates need no second look.
        let judged: Bool
    }

    let route: Route
    /// The stores holding the entity, as the context sees them.
    let stores: [any IncrementalStore]
    /// The entities whose objects the fetch returns.
    let kinds: Set<String>
    /// The predicate, with comparisons through relationships across stores made membership
    /// tests on the relationships.
    let predicate: FetchPredicate?
    /// The key paths, up to the relationship leading out, of the sort keys that lead to
    /// another store's entity: their destinations load before the objects are sorted in memory.
    let sortPathsAcrossStores: [String]

    /// The store and request of a direct plan, asking for `type`; `nil` for a merged one.
    func direct(_ type: StoreFetchRequest.ResultType) -> (store: any IncrementalStore, request: StoreFetchRequest)? {
        guard case .direct(let store, var request) = route else { return nil }
        request.resultType = type
        return (store, request)
    }
}

extension StoreRouter {
    /// Plans `request` for objects of `entity` (the request's entity).
    ///
    /// - Parameters:
    ///   - touchingPendingChanges: whether the context holds a pending change to an object of
    ///     one of the given entities.
    ///   - destinations: the IDs of the objects a request matches, pending changes included
    ///     as the request says: for comparisons through relationships across stores.
    /// - Throws: ``ContextError/Code/noStore`` when no store the context sees holds the entity
    ///   (among the request's affected stores), ``ContextError/Code/invalidRequest`` for a key
    ///   path across stores no store can answer, what `destinations` throws.
    func plan<Result>(
        _ request: FetchRequest<Result>, of entity: EntitySchema,
        touchingPendingChanges: (Set<String>) -> Bool,
        destinations: (FetchRequest<ManagedObject>) throws -> [ObjectID]
    ) throws -> FetchPlan {
        let stores = try stores(for: request)
        let kinds = Set(entity.names(includingSubentities: request.includesSubentities))
        var predicate = request.predicate
        var sortPaths: [String] = []
        if spansStores {
            // A key path leaves the entity's stores when none of the stores holding the entity
            // holds its destination, whichever of them the request searches.
            let holding = self.stores(forEntity: entity.name)
            if let original = predicate {
                let rewritten = try resolvingAcrossStores(
                    original, of: entity, in: holding, includingPendingChanges: request.includesPendingChanges,
                    destinations: destinations)
                try refuseKeyPathsAcrossStores(in: rewritten, of: entity, in: holding)
                predicate = rewritten
            }
            sortPaths = request.sortDescriptors.compactMap { descriptor in
                keyPathAcrossStores(descriptor.keyPath, of: entity, in: holding)?.path
            }
        }
        let touched = request.includesPendingChanges && touchingPendingChanges(kinds)
        func evaluates(_ store: any IncrementalStore) -> Bool {
            predicate.map { store.predicateFeatures.isSuperset(of: $0.requiredFeatures) } ?? true
        }
        let route: FetchPlan.Route
        if stores.count == 1, let store = stores.first, sortPaths.isEmpty, !touched, evaluates(store) {
            route = .direct(
                store,
                StoreFetchRequest(
                    entityName: request.entityName, includesSubentities: request.includesSubentities,
                    predicate: predicate, sortDescriptors: request.sortDescriptors, fetchOffset: request.fetchOffset,
                    fetchLimit: request.fetchLimit, resultType: .objectIDs))
        } else {
            let limit = StoreFetchRequest.effectiveLimit(request.fetchLimit)
            route = .merged(
                stores.map { store in
                    let native = evaluates(store)
                    let pageable = native && !touched && sortPaths.isEmpty
                    return FetchPlan.Leg(
                        store: store,
                        request: StoreFetchRequest(
                            entityName: request.entityName, includesSubentities: request.includesSubentities,
                            predicate: native ? predicate : nil,
                            sortDescriptors: sortPaths.isEmpty ? request.sortDescriptors : [],
                            fetchLimit: pageable ? limit.map { $0 + max(request.fetchOffset, 0) } : nil,
                            resultType: .snapshots),
                        judged: native)
                })
        }
        return FetchPlan(
            route: route, stores: stores, kinds: kinds, predicate: predicate, sortPathsAcrossStores: sortPaths)
    }

    /// The stores `request` searches: those holding its entity, among its affected stores when
    /// it names some.
    private func stores<Result>(for request: FetchRequest<Result>) throws -> [any IncrementalStore] {
        var stores = stores(forEntity: request.entityName)
        if let affected = request.affectedStores, !routesToParent {
            stores = stores.filter { store in affected.contains { $0 === store } }
        }
        guard !stores.isEmpty else {
            throw ContextError(
                code: .noStore,
                message: "No store added to the coordinator"
                    + (request.affectedStores == nil ? "" : " among the request's affected stores")
                    + (generation == nil ? "" : " among those added when the context's query generation was taken")
                    + " holds entity '\(request.entityName)'.")
        }
        return stores
    }
}
