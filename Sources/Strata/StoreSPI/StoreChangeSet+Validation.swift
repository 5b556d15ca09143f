/// The checks every store makes before it writes a change set, shared so that each store
/// refuses the same changes with the same errors.
extension StoreChangeSet {
    /// Throws ``StoreError/Code/invalidChange`` for the first change that is not for a
    /// permanent object of the store `storeIdentifier`, is of an abstract entity, names a
    /// property its entity does not
    /// store, gives a value its attribute cannot hold, or refers to an object its relationship
    /// cannot hold; ``StoreError/Code/unknownEntity`` for an entity outside `entityNames`.
    ///
    /// A value that converts exactly to its attribute's type (``AttributeType/coerce(_:)``:
    /// Integer 64 `1` for a Boolean, a Double for a Float) is replaced by the converted value,
    /// so that a store only ever sees values of each attribute's own type and writes what it
    /// reads back.
    ///
    /// - Parameters:
    ///   - schema: The model's schema.
    ///   - entityNames: The entities the store holds.
    ///   - storeIdentifier: The store's identifier.
    ///   - storeName: How messages name the store, such as "The SQLite store at '/a/b.sqlite'".
    public mutating func validate(
        schema: ModelSchema, entityNames: Set<String>, storeIdentifier: String, storeName: String
    ) throws {
        var validator = ChangeValidator(
            schema: schema, entityNames: entityNames, storeIdentifier: storeIdentifier, storeName: storeName)
        for index in inserted.indices {
            if let converted = try validator.validate(inserted[index]) { inserted[index].values = converted }
        }
        for index in updated.indices {
            if let converted = try validator.validate(updated[index]) { updated[index].values = converted }
        }
    }

    /// Throws ``StoreError/Code/conflict`` listing every change whose expected version is not
    /// the stored one: an insert of an object that already exists, or an update or deletion of
    /// an object whose stored version (`nil` when missing) differs from the expected one.
    ///
    /// - Parameter storedVersion: The version the store holds for an object; `nil` when it
    ///   holds none.
    /// - Throws: ``StoreError/Code/corrupt`` for an update of an object stored with version
    ///   `Int64.max`, which the update could not raise.
    public func checkVersions(storedVersion: (ObjectID) throws -> Int64?) throws {
        var conflicts: [StoreError.Conflict] = []
        for index in inserted.indices {
            let objectID = inserted[index].objectID
            if let stored = try storedVersion(objectID) {
                conflicts.append(.init(objectID: objectID, expectedVersion: 0, storedVersion: stored))
            }
        }
        let expectations =
            updated.map { ($0.objectID, $0.expectedVersion) } + deleted.map { ($0.objectID, $0.expectedVersion) }
        for (offset, (objectID, expected)) in expectations.enumerated() {
            let stored = try storedVersion(objectID)
            if stored != expected {
                conflicts.append(.init(objectID: objectID, expectedVersion: expected, storedVersion: stored))
            } else if offset < updated.count, stored == .max {
                // An update raises the stored version by one.
                throw StoreError(
                    code: .corrupt,
                    message: "\(objectID) is stored with version \(Int64.max), which an update cannot raise; the "
                        + "store is damaged.")
            }
        }
        guard conflicts.isEmpty else {
            let list = conflicts.map {
                "\($0.objectID) (expected version \($0.expectedVersion), stored \($0.storedVersion.map(String.init) ?? "none"))"
            }
            throw StoreError(
                code: .conflict,
                message: "The save conflicts with changes already saved: \(list.joined(separator: ", ")).",
                conflicts: conflicts)
        }
    }
}

/// Checks changes against the model and the store they are for. What it learns of an ID
/// namespace (its entity, whether it is the store's) it keeps for the next change.
private struct ChangeValidator {
    let schema: ModelSchema
    let entityNames: Set<String>
    let storeIdentifier: String
    let storeName: String
    /// The entity of each namespace of this store's IDs met so far.
    private var entities: [ObjectID.Namespace: EntitySchema] = [:]
    /// The entity of each namespace of the destinations met so far (`nil` when the model has none).
    private var destinationEntities: [ObjectID.Namespace: EntitySchema?] = [:]

    init(schema: ModelSchema, entityNames: Set<String>, storeIdentifier: String, storeName: String) {
        self.schema = schema
        self.entityNames = entityNames
        self.storeIdentifier = storeIdentifier
        self.storeName = storeName
    }

    func entity(named name: String) throws -> EntitySchema {
        guard let entity = schema.entitiesByName[name], entityNames.contains(name) else {
            throw StoreError(code: .unknownEntity, message: "Entity '\(name)' is not in \(storeName)'s model.")
        }
        return entity
    }

    /// Checks `change`; returns its values with each attribute value converted to the
    /// attribute's type when any needed it, `nil` when none did.
    mutating func validate(_ change: borrowing StoreChangeSet.ObjectChange) throws -> PropertyValues? {
        let (storeName, objectID) = (storeName, change.objectID)
        func invalid(_ message: String) -> StoreError {
            StoreError(code: .invalidChange, message: "\(storeName) cannot save \(objectID): \(message)")
        }
        let entity: EntitySchema
        if let known = entities[change.objectID.namespace] {
            entity = known
        } else {
            entity = try self.entity(named: change.objectID.entityName)
            guard !entity.description.isAbstract else {
                throw invalid(
                    "entity '\(entity.name)' is abstract; only objects of its concrete sub-entities are saved.")
            }
            try checkPermanent(change.objectID, invalid)
            guard change.objectID.storeIdentifier == storeIdentifier else {
                throw invalid(
                    "the ID belongs to store '\(change.objectID.storeIdentifier ?? "")', not '\(storeIdentifier)'.")
            }
            entities[change.objectID.namespace] = entity
        }
        try checkPermanent(change.objectID, invalid)
        let converted: PropertyValues?
        if let slots = change.values.slots(for: entity) {
            converted = try validate(slots, of: entity, invalid).map { PropertyValues(entity: entity, slots: $0) }
        } else {
            converted = try validate(change.values, of: entity, invalid)
        }
        for (key, members) in change.toManyRelationships {
            guard let relationship = entity.relationshipsByName[key], relationship.isToMany else {
                throw invalid("'\(entity.name)' has no to-many relationship '\(key)'.")
            }
            for member in members where !isDestination(member, of: relationship.destinationEntityName) {
                try checkDestination(member, of: relationship, in: entity, invalid)
            }
        }
        return converted
    }

    private func checkPermanent(_ objectID: ObjectID, _ invalid: (String) -> StoreError) throws {
        guard !objectID.isTemporary else {
            throw invalid("a temporary ID cannot be saved; get a permanent one from permanentIDs(forEntities:).")
        }
    }

    /// Checks values held by slot: every persistent slot is there, so only the values are.
    /// Returns the slots with values converted to their attribute's type, `nil` when none needed it.
    private mutating func validate(
        _ slots: [AttributeValue], of entity: EntitySchema, _ invalid: (String) -> StoreError
    ) throws -> [AttributeValue]? {
        var converted: [AttributeValue]?
        for slot in slots.indices where !slots[slot].isNull {
            switch entity.persistentSlotTypes[slot] {
            case .attribute(let type):
                guard let value = type.coerce(slots[slot]) else {
                    throw invalid(
                        "'\(entity.name).\(entity.slotNames[slot])' is \(type.modelFileName), not \(slots[slot]).")
                }
                if value.attributeType != slots[slot].attributeType {
                    if converted == nil { converted = slots }
                    converted?[slot] = value
                }
            case .toOne(let destinationEntityName):
                guard case .objectID(let destination) = slots[slot] else {
                    throw invalid(
                        "to-one '\(entity.name).\(entity.slotNames[slot])' needs an object ID, not \(slots[slot]).")
                }
                guard !isDestination(destination, of: destinationEntityName) else { continue }
                guard let relationship = entity.relationshipsByName[entity.slotNames[slot]] else {
                    throw invalid("'\(entity.name)' has no to-one relationship '\(entity.slotNames[slot])'.")
                }
                try checkDestination(destination, of: relationship, in: entity, invalid)
            }
        }
        return converted
    }

    /// Whether `destination` is a permanent ID of `entityName` or one of its sub-entities; each
    /// namespace's entity is looked up once.
    private mutating func isDestination(_ destination: ObjectID, of entityName: String) -> Bool {
        guard !destination.isTemporary else { return false }
        let entity: EntitySchema?
        if let known = destinationEntities[destination.namespace] {
            entity = known
        } else {
            entity = schema.entitiesByName[destination.entityName]
            destinationEntities[destination.namespace] = entity
        }
        return entity?.isKind(of: entityName) == true
    }

    /// Checks values held by name: each must name a stored attribute or to-one relationship.
    /// Returns the values with each converted to its attribute's type, `nil` when none needed it.
    private func validate(
        _ values: PropertyValues, of entity: EntitySchema, _ invalid: (String) -> StoreError
    ) throws -> PropertyValues? {
        var converted: PropertyValues?
        for (key, value) in values {
            if let attribute = entity.attributesByName[key], !attribute.isTransient {
                guard let stored = attribute.type.coerce(value) else {
                    throw invalid("'\(entity.name).\(key)' is \(attribute.type.modelFileName), not \(value).")
                }
                if stored.attributeType != value.attributeType {
                    if converted == nil { converted = values }
                    converted?[key] = stored
                }
            } else if let relationship = entity.relationshipsByName[key], !relationship.isToMany {
                guard case .objectID(let destination) = value else {
                    guard value.isNull else {
                        throw invalid("to-one '\(entity.name).\(key)' needs an object ID, not \(value).")
                    }
                    continue
                }
                try checkDestination(destination, of: relationship, in: entity, invalid)
            } else {
                throw invalid("'\(entity.name)' has no stored attribute or to-one relationship '\(key)'.")
            }
        }
        return converted
    }

    /// Throws `invalid(…)` unless `destination` is an object `relationship` can hold: of its
    /// destination entity or a sub-entity, and not temporary.
    private func checkDestination(
        _ destination: ObjectID, of relationship: RelationshipDescription, in entity: EntitySchema,
        _ invalid: (String) -> StoreError
    ) throws {
        func path() -> String { "'\(entity.name).\(relationship.name)'" }
        guard schema.entitiesByName[destination.entityName]?.isKind(of: relationship.destinationEntityName) == true
        else {
            throw invalid("\(path()) holds \(relationship.destinationEntityName) objects, not \(destination).")
        }
        guard !destination.isTemporary else {
            throw invalid("\(path()) refers to \(destination), which has a temporary ID.")
        }
    }
}
