extension PersistentStoreCoordinator {
    /// The ``observer``, when there is one and it reports anything now.
    var activeObserver: (any OperationObserver)? {
        guard let observer, observer.isObserving else { return nil }
        return observer
    }

    /// Runs `body` as `operation` under the ``observer``; without one that reports anything,
    /// runs it alone and never works out the operation.
    @discardableResult
    func observing<T>(
        _ operation: @autoclosure () -> ObservedOperation, _ body: (inout ObservedOutcome) throws -> T
    ) throws -> T {
        guard let observer = activeObserver else {
            var unobserved = ObservedOutcome()
            return try body(&unobserved)
        }
        return try observer.observe(operation(), body)
    }

    /// Tells the ``observer`` of `event`; works out nothing without one that reports anything.
    func record(_ event: @autoclosure () -> ObservedEvent) {
        activeObserver?.record(event())
    }

    /// `kind` on `entity`, in the types of the stores that hold it. A name the model does not
    /// have (a request's mistake, which fails) is ``ObservedOperation/unknownEntity``, so that
    /// what callers pass never widens an observer's dimensions.
    func operation(_ kind: ObservedOperation.Kind, on entity: String) -> ObservedOperation {
        guard schema.entitiesByName[entity] != nil else {
            return ObservedOperation(kind: kind, entity: ObservedOperation.unknownEntity, storeTypes: "none")
        }
        return ObservedOperation(kind: kind, entity: entity, storeTypes: observedStoreTypes(ofEntities: [entity]))
    }

    /// The types of the stores that hold `entities`, as ``ObservedOperation/storeTypes`` names
    /// them; those of one entity are kept until a store is added or removed.
    func observedStoreTypes(ofEntities entities: Set<String>) -> String {
        state.withLock { state in
            func types() -> String {
                ObservedOperation.storeTypes(
                    state.stores.filter { !$0.entityNames.isDisjoint(with: entities) }.map(\.store.typeName))
            }
            guard entities.count == 1, let entity = entities.first else { return types() }
            if let known = state.observedStoreTypes[entity] { return known }
            let known = types()
            state.observedStoreTypes[entity] = known
            return known
        }
    }

    /// Tells the ``observer`` that `object`'s fault fires.
    func recordFaultFired(of object: ManagedObject) {
        guard let observer = activeObserver else { return }
        let storeType = object.objectID.storeIdentifier.flatMap { store(withIdentifier: $0)?.typeName } ?? "none"
        observer.record(.faultFired(entity: object.entity.name, storeType: storeType))
    }
}
