extension ManagedObjectContext {
    /// Creates an object of the entity `entityName`, as an instance of the class registered for
    /// it, and inserts it; attributes start at the model's default values.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/unknownEntity``, or
    ///   ``ContextError/Code/abstractEntity`` naming the concrete sub-entities for an abstract
    ///   entity.
    @discardableResult
    public func insertNewObject(forEntityName entityName: String) throws(ContextError) -> ManagedObject {
        assertOnQueue()
        let entity = try entitySchema(named: entityName)
        guard !entity.description.isAbstract else {
            let concrete = entity.descendantNames.filter { schema.entitiesByName[$0]?.description.isAbstract == false }
            throw ContextError(
                code: .abstractEntity,
                message: "Entity '\(entityName)' is abstract and has no objects of its own; insert one of its concrete "
                    + "sub-entities (\(concrete.sorted().joined(separator: ", "))) instead.")
        }
        let type = coordinator.objectClass(forEntity: entityName)
        let object = type.init(
            creating: ManagedObject.Creation(
                entity: entity, objectID: .temporary(in: entity.temporaryNamespace), context: self))
        register(inserted: object)
        return object
    }

    /// The object with `objectID`: the registered one, or a new fault that loads its values
    /// from the store on first use. It does not check that the object exists.
    public func object(with objectID: ObjectID) -> ManagedObject {
        assertOnQueueKeepingDeletes()
        if let object = registered[objectID] { return object }
        guard let (entity, type) = classLookup(for: objectID) else {
            preconditionFailure("\(objectID) names an entity the model does not have.")
        }
        let object = type.init(creating: ManagedObject.Creation(entity: entity, objectID: objectID, context: self))
        graph.register(object)
        return object
    }

    /// The object with `objectID`, an ID read from a store's data (a relationship's value or
    /// member), as ``object(with:)`` gives it.
    ///
    /// - Throws: ``ContextError/Code/unknownEntity`` when the ID names an entity the model does
    ///   not have: a store's data says so, which must not stop the process.
    func object(withStored objectID: ObjectID) throws -> ManagedObject {
        if let object = registered[objectID] { return object }
        guard classLookup(for: objectID) != nil else {
            throw ContextError(
                code: .unknownEntity,
                message: "A store refers to \(objectID), whose entity '\(objectID.entityName)' the model does not have."
            )
        }
        return object(with: objectID)
    }

    /// The entity of `objectID` and the class its objects are made of, looked up once per
    /// namespace until a class is next registered with the coordinator; `nil` when the model has
    /// no such entity.
    private func classLookup(for objectID: ObjectID) -> (entity: EntitySchema, type: ManagedObject.Type)? {
        let registrations = coordinator.classRegistrations.load(ordering: .acquiring)
        if registrations != classLookupsRegistrations {
            classLookups = [:]
            classLookupsRegistrations = registrations
        }
        if let known = classLookups[objectID.namespace] { return known }
        guard let entity = schema.entitiesByName[objectID.entityName] else { return nil }
        let lookup = (entity, coordinator.objectClass(forEntity: entity.name))
        classLookups[objectID.namespace] = lookup
        return lookup
    }

    /// The object with `objectID`, its values loaded, after checking that its store still has it.
    ///
    /// - Throws: ``ContextError`` with code ``ContextError/Code/objectNotFound`` when no
    ///   store has it (or the ID is a temporary one this context does not know), or a store's
    ///   error.
    public func existingObject(with objectID: ObjectID) throws -> ManagedObject {
        assertOnQueue()
        if let object = registered[objectID], !object.faulted { return object }
        guard schema.entitiesByName[objectID.entityName] != nil, !objectID.isTemporary || parent != nil,
            (try? router.store(for: objectID)) != nil, let snapshot = try storedSnapshot(of: objectID)
        else {
            throw ContextError(code: .objectNotFound, message: "No store has an object \(objectID).")
        }
        let object = object(with: objectID)
        load(object, from: snapshot)
        return object
    }

    /// The registered object with `objectID`, if the context has one.
    public func registeredObject(for objectID: ObjectID) -> ManagedObject? {
        assertOnQueue()
        return registered[objectID]
    }

    /// Every object the context holds.
    public var registeredObjects: Set<ManagedObject> {
        assertOnQueue()
        return Set(registered.values)
    }

    /// Makes `object` a new object of this context (called while it is being created).
    func register(inserted object: ManagedObject) {
        assertOnQueue()
        object.becomeNew()
        graph.insert(object)
        unprocessedChanges.inserted.append(object)
        undoManager?.record(.insertion(object))
        object.awakeFromInsert()
    }

    /// What ``ManagedObject/init(context:)`` needs to create an object of `type`.
    func creationForInsert(of type: ManagedObject.Type) -> ManagedObject.Creation {
        assertOnQueue()
        let name = type.entityName
        guard let entity = schema.entitiesByName[name] else {
            preconditionFailure("Cannot insert \(type): the model has no entity '\(name)'; override entityName.")
        }
        coordinator.registerIfNeeded(type)
        return ManagedObject.Creation(
            entity: entity, objectID: .temporary(in: entity.temporaryNamespace), context: self)
    }

    /// Loads a fault's values: from the snapshot cache, else from its store.
    ///
    /// - Throws: ``ContextError/Code/inaccessibleFault`` when the record is gone and
    ///   ``shouldDeleteInaccessibleFaults`` is off, or when its store is not added to the
    ///   coordinator (an object another store refers to); a store's error when reading fails.
    func fulfill(_ object: ManagedObject) throws {
        guard object.faulted else { return }
        if let cached = graph.takeSnapshot(of: object.objectID) {
            load(object, from: cached)
            return
        }
        let missingStore = object.objectID.storeIdentifier.flatMap { store in
            coordinator.store(withIdentifier: store) == nil ? store : nil
        }
        func storeNotAdded(_ store: String) -> ContextError {
            ContextError(
                code: .inaccessibleFault,
                message: "Cannot fulfil the fault for \(object.objectID): its store \(store) is not added to the "
                    + "coordinator. Add the store again to reach the object.")
        }
        // A child context asks its parent first, which may hold the object's values still.
        if parentStore == nil, let missingStore { throw storeNotAdded(missingStore) }
        guard let snapshot = try storedSnapshot(of: object.objectID) else {
            if let missingStore { throw storeNotAdded(missingStore) }
            guard shouldDeleteInaccessibleFaults else {
                throw ContextError(
                    code: .inaccessibleFault,
                    message: "Cannot fulfil the fault for \(object.objectID): its store no longer has the object.")
            }
            markInaccessible(object)
            return
        }
        load(object, from: snapshot)
    }

    /// Fills `object` with `snapshot`, keeping any changes the context made to it.
    func load(_ object: ManagedObject, from snapshot: Snapshot) {
        if object.fill(from: snapshot) { object.awakeFromFetch() }
    }

    /// Marks an object whose record vanished as deleted, with no values.
    func markInaccessible(_ object: ManagedObject) {
        object.becomeInaccessible()
        graph.forgetChanges(of: [object])
    }

    /// The members of the to-many `relationship` of `object`, loading them from the store on
    /// first use. An object never saved (inserted, or inserted and deleted) has none in a store.
    func members(of object: ManagedObject, _ relationship: RelationshipDescription) throws -> [ObjectID] {
        if let current = object.currentMembers[relationship.name] { return current.elements }
        try fulfill(object)
        // An object with a temporary ID (new, or new and just deleted) has no stored members;
        // in a child context, only its own new objects are in that case.
        let isNewHere = parent == nil || pendingInserts.contains(object) || object.isDiscarded
        if (object.objectID.isTemporary && isNewHere) || object.isInaccessible {
            object.replaceCurrentMembers([], forKey: relationship.name)
            return []
        }
        loadMembersAlongCohort(of: object, relationship)
        if let current = object.currentMembers[relationship.name] { return current.elements }
        let store = try router.store(for: object.objectID)
        let loaded = try reads(of: store).relatedObjectIDs(of: object.objectID, relationship: relationship.name)
        return object.setLoadedMembers(loaded, forKey: relationship.name).elements
    }
}
