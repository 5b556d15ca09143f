/// A source object as a migration policy reads it.
public struct MigrationSourceInstance {
    let object: MigrationSourceObject
    let schema: ModelSchema

    /// The object's ID in the source store.
    public var objectID: ObjectID { object.objectID }

    /// The name of the object's entity in the source model.
    public var entityName: String { object.objectID.entityName }

    /// The value of the attribute `key`, or the ID of the object the to-one relationship
    /// `key` holds (``AttributeValue/null`` when it holds none).
    ///
    /// - Throws: ``MigrationError/Code/invalidMapping`` when the entity has no attribute or
    ///   to-one relationship `key`; the source store's error when reading fails.
    public func value(forKey key: String) throws -> AttributeValue {
        switch try resolved(key) {
        case .value(let value): return value
        case .object(let other): return other.objectIdentity
        case .objects: throw notSingle(key)
        }
    }

    /// The object the to-one relationship `key` holds.
    public func object(forKey key: String) throws -> MigrationSourceInstance? {
        switch try resolved(key) {
        case .object(let other as MigrationSourceObject): return MigrationSourceInstance(object: other, schema: schema)
        case .value(.null): return nil
        default: throw notSingle(key)
        }
    }

    /// The objects the to-many relationship `key` holds, in order for an ordered one.
    public func objects(forKey key: String) throws -> [MigrationSourceInstance] {
        guard case .objects(let members) = try resolved(key) else {
            throw MigrationError(
                code: .invalidMapping,
                message: "'\(entityName).\(key)' of the source model is not a to-many relationship.",
                entityName: entityName, propertyName: key)
        }
        return members.compactMap {
            ($0 as? MigrationSourceObject).map { MigrationSourceInstance(object: $0, schema: schema) }
        }
    }

    private func resolved(_ key: String) throws -> ResolvedValue {
        if let value = object.resolvedValue(forKey: key) { return value }
        if let failure = object.reader.takeError() { throw failure }
        throw MigrationError(
            code: .invalidMapping, message: "Source entity '\(entityName)' has no property '\(key)'.",
            entityName: entityName, propertyName: key)
    }

    private func notSingle(_ key: String) -> MigrationError {
        MigrationError(
            code: .invalidMapping, message: "'\(entityName).\(key)' of the source model holds several objects.",
            entityName: entityName, propertyName: key)
    }
}

/// An object a migration policy made in the destination store, before it is saved.
///
/// Setting a relationship to another object a policy made also sets that object's inverse.
public final class MigrationDestinationInstance {
    /// The object's ID in the destination store.
    public let objectID: ObjectID
    /// The object's entity in the destination model.
    public let entity: EntitySchema
    /// The values of its attributes and to-one relationships, by name.
    public private(set) var values: [String: AttributeValue]
    /// The members of its to-many relationships, by name.
    public private(set) var members: [String: [ObjectID]] = [:]
    /// The instances made so far, to keep inverses in step; gone once the migration ends.
    private weak var registry: MigrationInstanceRegistry?

    init(
        objectID: ObjectID, entity: EntitySchema, values: [String: AttributeValue], registry: MigrationInstanceRegistry
    ) {
        self.objectID = objectID
        self.entity = entity
        self.values = values
        self.registry = registry
    }

    /// The value of the attribute or to-one relationship `key` (an object ID for a filled
    /// to-one relationship).
    public func value(forKey key: String) -> AttributeValue { values[key] ?? .null }

    /// Sets the attribute `key`, converting the value to its type as inferred mappings do
    /// (an Integer 16 to an Integer 64, a number to a string).
    ///
    /// - Throws: ``MigrationError/Code/invalidValue`` when the entity has no stored attribute
    ///   `key` or the value does not fit it.
    public func setValue(_ value: AttributeValue, forKey key: String) throws {
        guard let attribute = entity.attributesByName[key], !attribute.isTransient else {
            throw invalid(key, "'\(entity.name)' has no stored attribute '\(key)'.")
        }
        guard let converted = value.converted(to: attribute.type) else {
            throw invalid(key, "\(value) cannot be converted to \(attribute.type.modelFileName).")
        }
        values[key] = converted
    }

    /// Sets the to-one relationship `key` to `object` (`nil` for none), and its inverse.
    public func setObject(_ object: MigrationDestinationInstance?, forKey key: String) throws {
        guard let relationship = entity.relationshipsByName[key], !relationship.isToMany else {
            throw invalid(key, "'\(entity.name)' has no to-one relationship '\(key)'.")
        }
        if case .objectID(let old) = values[key], let previous = registry?.instance(old),
            let inverse = relationship.inverseName
        {
            previous.forget(objectID, inverse: inverse)
        }
        values[key] = object.map { .objectID($0.objectID) } ?? .null
        if let object, let inverse = relationship.inverseName { object.remember(self, inverse: inverse) }
    }

    /// Sets the to-many relationship `key` to `objects`, in order, and their inverses.
    public func setObjects(_ objects: [MigrationDestinationInstance], forKey key: String) throws {
        guard let relationship = entity.relationshipsByName[key], relationship.isToMany else {
            throw invalid(key, "'\(entity.name)' has no to-many relationship '\(key)'.")
        }
        for old in members[key] ?? [] {
            if let previous = registry?.instance(old), let inverse = relationship.inverseName {
                previous.forget(objectID, inverse: inverse)
            }
        }
        members[key] = objects.map(\.objectID)
        if let inverse = relationship.inverseName {
            for object in objects { object.remember(self, inverse: inverse) }
        }
    }

    /// Sets the relationships of a policy object to objects other mappings made, by ID.
    func setRelated(toOne: [String: AttributeValue], toMany: [String: [ObjectID]]) {
        values.merge(toOne) { _, new in new }
        members.merge(toMany) { _, new in new }
    }

    /// Records `owner` in the inverse relationship `key`; a to-one inverse first leaves the
    /// object it held, whose own relationship then forgets this one.
    private func remember(_ owner: MigrationDestinationInstance, inverse key: String) {
        guard let relationship = entity.relationshipsByName[key] else { return }
        if relationship.isToMany {
            if members[key]?.contains(owner.objectID) != true { members[key, default: []].append(owner.objectID) }
            return
        }
        if case .objectID(let old) = values[key], old != owner.objectID, let previous = registry?.instance(old),
            let ownerSide = relationship.inverseName
        {
            previous.forget(objectID, inverse: ownerSide)
        }
        values[key] = .objectID(owner.objectID)
    }

    private func forget(_ owner: ObjectID, inverse key: String) {
        guard let relationship = entity.relationshipsByName[key] else { return }
        if relationship.isToMany {
            members[key]?.removeAll { $0 == owner }
        } else if values[key] == .objectID(owner) {
            values[key] = .null
        }
    }

    private func invalid(_ key: String, _ reason: String) -> MigrationError {
        MigrationError(
            code: .invalidValue, message: "Cannot set '\(entity.name).\(key)' of \(objectID): \(reason)",
            entityName: entity.name, propertyName: key)
    }
}

@available(*, unavailable) extension MigrationDestinationInstance: Sendable {}

/// Every object the migration's policies made, by ID, in the order they were made.
final class MigrationInstanceRegistry {
    private(set) var instances: [MigrationDestinationInstance] = []
    /// Each instance's place in the copying order.
    private(set) var places: [ObjectID: Int] = [:]
    private var byID: [ObjectID: MigrationDestinationInstance] = [:]
    private var byEntity: [String: [MigrationDestinationInstance]] = [:]

    func add(_ instance: MigrationDestinationInstance, at place: Int) {
        instances.append(instance)
        byID[instance.objectID] = instance
        byEntity[instance.entity.name, default: []].append(instance)
        places[instance.objectID] = place
    }

    /// The instances of `entityName` (sub-entities excepted), in the order they were made.
    func instances(ofEntity entityName: String) -> [MigrationDestinationInstance] { byEntity[entityName] ?? [] }

    func instance(_ id: ObjectID) -> MigrationDestinationInstance? { byID[id] }
}
