extension PersistentStoreCoordinator {
    /// Makes contexts on this coordinator create objects of entity `entityName` (and of its
    /// sub-entities that have no class of their own) as instances of `type`.
    ///
    /// A class is registered for its ``ManagedObject/entityName`` the first time it is used to
    /// insert an object or type a fetch request; register it up front when objects of the
    /// entity may be fetched before that.
    ///
    /// Registering a class checks its typed properties against the entity: a mismatch stops the
    /// program here, naming the class and property. Bind classes to the model instead
    /// (``ManagedObjectModel/bind(_:)``) to get the mismatches as a ``ModelError`` when the model
    /// is loaded; a model made from classes knows its classes already.
    ///
    /// - Precondition: the model has the entity, no other class is registered for it, and the
    ///   class's typed properties agree with it.
    public func register(_ type: ManagedObject.Type, forEntity entityName: String? = nil) {
        let name = entityName ?? type.entityName
        precondition(
            schema.entitiesByName[name] != nil,
            "Cannot register \(type) for entity '\(name)': the model has no such entity.")
        let mismatches = model.propertyMismatches(of: type, entity: name)
        precondition(mismatches.isEmpty, "Cannot register \(type): " + mismatches.map(\.message).joined(separator: " "))
        classes.withLock { classes in
            if let existing = classes[name] {
                precondition(
                    existing == type,
                    "Entity '\(name)' is already registered for class \(existing); cannot also register \(type).")
            }
            classes[name] = type
        }
        classRegistrations.add(1, ordering: .releasing)
    }

    /// The class objects of `entityName` are made of: its own registered class, else the
    /// nearest super-entity's, else ``ManagedObject``.
    public func objectClass(forEntity entityName: String) -> ManagedObject.Type {
        let lineage = [entityName] + (schema.entitiesByName[entityName]?.superentityNames ?? [])
        let registered = classes.withLock { $0 }
        for name in lineage {
            if let type = registered[name] { return type }
        }
        return ManagedObject.self
    }

    /// Registers `type` for its entity unless a class is registered already.
    func registerIfNeeded(_ type: ManagedObject.Type) {
        guard type != ManagedObject.self else { return }
        let registered = classes.withLock { $0[type.entityName] }
        if registered == nil { register(type) }
    }
}
