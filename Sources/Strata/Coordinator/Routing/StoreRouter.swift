/// The coordinator's routing, as one context sees the stores: which stores hold an entity,
/// which holds an object, which a new object goes to. It plans a fetch (``FetchPlan``) and a
/// save (``SavePlan``) once, so that a context asks where things go and never works it out
/// itself.
///
/// A child context's view is its parent, as its only store; a context pinned to a query
/// generation sees only the stores added when the generation was taken.
struct StoreRouter {
    let coordinator: PersistentStoreCoordinator
    /// The parent context as the only store, for a child context.
    let parentStore: (any IncrementalStore)?
    /// The query generation whose stores the context sees, when it is pinned to one.
    let generation: QueryGeneration?
    /// The context's name, for messages.
    let contextName: String?

    /// Whether the context saves into a parent context rather than to stores.
    var routesToParent: Bool { parentStore != nil }

    /// Whether more than one store is added: only then can a relationship or key path lead
    /// from one store to another.
    var spansStores: Bool { parentStore == nil && coordinator.stores.count > 1 }

    /// The stores holding entity `name`, in the order they were added.
    func stores(forEntity name: String) -> [any IncrementalStore] {
        if let parentStore { return [parentStore] }
        let stores = coordinator.stores(forEntity: name)
        guard let generation else { return stores }
        return stores.filter(generation.contains)
    }

    /// The store holding the saved object `objectID`.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unknownStore`` when no added store
    ///   holds it, or when its store was added after the query generation was taken.
    func store(for objectID: ObjectID) throws -> any IncrementalStore {
        if let parentStore { return parentStore }
        let store = try coordinator.store(for: objectID)
        if let generation, !generation.contains(store) {
            throw StoreError(
                code: .unknownStore,
                message: "\(store.nameInMessages), which holds \(objectID), was added after the query generation "
                    + "\(contextName.map { "Context '\($0)'" } ?? "The context") reads (\(QueryGenerationToken(generation: generation))); advance the context "
                    + "to read it.")
        }
        return store
    }

    /// The store the new `object` is saved in: the one it is assigned to, else the first
    /// holding its entity.
    ///
    /// - Throws: ``ContextError/Code/noStore`` when the assigned store is not added or lacks
    ///   the entity, or when no store holds it.
    func placement(of object: ManagedObject) throws -> any IncrementalStore {
        if let parentStore { return parentStore }
        let name = object.entity.name
        if let assigned = object.assignedStore {
            guard coordinator.holds(assigned, entityName: name) else {
                throw ContextError(
                    code: .noStore,
                    message: "\(object.objectID) is assigned to the \(assigned.typeName) store \(assigned.identifier), "
                        + "which is not added to the coordinator or whose configuration lacks entity '\(name)'.")
            }
            return assigned
        }
        guard let first = coordinator.stores(forEntity: name).first else {
            throw ContextError(
                code: .noStore,
                message: "No store added to the coordinator holds entity '\(name)' of \(object.objectID).")
        }
        return first
    }

    /// `objectIDs` grouped by the store holding them, in first-seen order; IDs no store holds
    /// are left out.
    func groupedByStore(_ objectIDs: [ObjectID]) -> [(store: any IncrementalStore, ids: [ObjectID])] {
        var groups: [(store: any IncrementalStore, ids: [ObjectID])] = []
        for id in objectIDs {
            guard let store = try? store(for: id) else { continue }
            if let index = groups.firstIndex(where: { $0.store === store }) {
                groups[index].ids.append(id)
            } else {
                groups.append((store, [id]))
            }
        }
        return groups
    }

    /// Whether `store`'s configuration holds `entityName`.
    func holds(_ store: any IncrementalStore, entityName: String) -> Bool {
        coordinator.holds(store, entityName: entityName)
    }
}

extension PersistentStoreCoordinator {
    /// The router for the context named `contextName`, which saves into
    /// `parentStore` (a child context) or, without one, to the coordinator's stores as they
    /// were when `generation` was taken (or as they are, without one).
    func router(
        parentStore: (any IncrementalStore)?, generation: QueryGeneration?, contextName: String?
    ) -> StoreRouter {
        StoreRouter(coordinator: self, parentStore: parentStore, generation: generation, contextName: contextName)
    }
}
