extension PersistentStoreCoordinator {
    /// Runs `body` as `operation` under the ``observer``; without one, runs it alone and never
    /// works out the operation.
    @discardableResult
    func observing<T>(
        _ operation: @autoclosure () -> ObservedOperation, _ body: (inout ObservedOutcome) throws -> T
    ) throws -> T {
        guard let observer else {
            var unobserved = ObservedOutcome()
            return try body(&unobserved)
        }
        return try observer.observe(operation(), body)
    }

    /// Tells the ``observer`` of `event`; works out nothing without one.
    func record(_ event: @autoclosure () -> ObservedEvent) {
        observer?.record(event())
    }

    /// `kind` on `entity`, in the types of the stores that hold it. A name the model does not
    /// have (a request's mistake, which fails) is ``ObservedOperation/unknownEntity``, so that
    /// what callers pass never widens an observer's dimensions.
    func operation(_ kind: ObservedOperation.Kind, on entity: String) -> ObservedOperation {
        guard schema.entitiesByName[entity] != nil else {
            return ObservedOperation(kind: kind, entity: ObservedOperation.unknownEntity, storeTypes: "none")
        }
        return ObservedOperation(
            kind: kind, entity: entity,
            storeTypes: ObservedOperation.storeTypes(stores(forEntity: entity).map(\.typeName)))
    }

    /// Tells the ``observer`` that `object`'s fault fires.
    func recordFaultFired(of object: ManagedObject) {
        guard let observer else { return }
        let storeType = object.objectID.storeIdentifier.flatMap { store(withIdentifier: $0)?.typeName } ?? "none"
        observer.record(.faultFired(entity: object.entity.name, storeType: storeType))
    }
}
