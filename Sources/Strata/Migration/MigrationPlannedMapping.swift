/// One entity mapping of a migration, checked against both models: the entities it reads
/// and makes, and how each destination property gets its value.
struct MigrationPlannedMapping {
    let mapping: EntityMapping
    let sourceEntity: EntitySchema
    let destinationEntity: EntitySchema
    /// The policy that runs the mapping; `nil` for one that makes one object per source
    /// object from its property mappings, a batch at a time.
    let policy: (any MigrationPolicy)?
    /// Whether the mapping copies an unchanged entity as it is — kind ``EntityMapping/Kind/copy``,
    /// the same name and version hash on both sides, every property mapped from the source's
    /// property of its name — so that values pass through as the source holds them (only
    /// references are renumbered).
    let passesValuesThrough: Bool
    /// Every stored attribute of the destination entity with its mapping, if it has one.
    let attributes: [(attribute: AttributeDescription, mapping: PropertyMapping?)]
    /// Every stored relationship of the destination entity with its mapping, if it has one.
    let relationships: [(relationship: RelationshipDescription, mapping: PropertyMapping?)]
    /// The entities whose objects each destination relationship may hold: its destination
    /// entity and those below it.
    let acceptedEntityNames: [String: Set<String>]
    /// The source's to-many relationships whose members are read a batch at a time.
    let prefetchedToManyRelationships: [String]

    /// Checks `mapping` against the two entities.
    ///
    /// - Throws: ``MigrationError/Code/invalidMapping`` when a property mapping names a
    ///   property the destination entity does not have, gives an attribute to a relationship
    ///   (or the other way round), or reads a `$source` key the source entity does not store.
    init(
        _ mapping: EntityMapping, from sourceEntity: EntitySchema, to destinationEntity: EntitySchema,
        in destinationSchema: ModelSchema, policy: (any MigrationPolicy)?
    ) throws(MigrationError) {
        self.mapping = mapping
        self.policy = policy
        self.sourceEntity = sourceEntity
        self.destinationEntity = destinationEntity
        var attributeMappings: [String: PropertyMapping] = [:]
        for property in mapping.attributeMappings {
            guard let attribute = destinationEntity.attributesByName[property.name], !attribute.isTransient else {
                throw Self.unknownProperty(property.name, "attribute", of: mapping, destinationEntity)
            }
            if let key = property.copiedSourceKey { try Self.checkSourceKey(key, of: property, mapping, sourceEntity) }
            attributeMappings[property.name] = property
        }
        var relationshipMappings: [String: PropertyMapping] = [:]
        for property in mapping.relationshipMappings {
            guard let relationship = destinationEntity.relationshipsByName[property.name], !relationship.isTransient
            else { throw Self.unknownProperty(property.name, "relationship", of: mapping, destinationEntity) }
            if let key = property.relationshipSource.sourceKey {
                try Self.checkSourceKey(key, of: property, mapping, sourceEntity)
            }
            relationshipMappings[property.name] = property
        }
        passesValuesThrough = mapping.passesValuesThrough(from: sourceEntity, to: destinationEntity)
        attributes = destinationEntity.attributes.filter { !$0.isTransient }.map { ($0, attributeMappings[$0.name]) }
        relationships = destinationEntity.relationships.filter { !$0.isTransient }.map {
            ($0, relationshipMappings[$0.name])
        }
        var accepted: [String: Set<String>] = [:]
        for (relationship, _) in relationships {
            let target = destinationSchema.entitiesByName[relationship.destinationEntityName]
            accepted[relationship.name] = Set([relationship.destinationEntityName] + (target?.descendantNames ?? []))
        }
        acceptedEntityNames = accepted
        let toMany = Set(sourceEntity.relationships.filter { $0.isToMany && !$0.isTransient }.map(\.name))
        if passesValuesThrough {
            prefetchedToManyRelationships = toMany.sorted()
        } else {
            prefetchedToManyRelationships = Set(relationships.compactMap { $0.mapping?.relationshipSource.sourceKey })
                .intersection(toMany).sorted()
        }
    }

    /// Throws unless the source entity stores `key`, as an attribute or a relationship.
    private static func checkSourceKey(
        _ key: String, of property: PropertyMapping, _ mapping: EntityMapping, _ entity: EntitySchema
    ) throws(MigrationError) {
        let attribute = entity.attributesByName[key]
        let relationship = entity.relationshipsByName[key]
        guard attribute.map({ !$0.isTransient }) ?? relationship.map({ !$0.isTransient }) ?? false else {
            throw MigrationError(
                code: .invalidMapping,
                message: "Entity mapping '\(mapping.name)' gives '\(property.name)' the value of $source.\(key), which "
                    + "source entity '\(entity.name)' does not store.",
                entityName: entity.name, propertyName: key)
        }
    }

    private static func unknownProperty(
        _ name: String, _ kind: String, of mapping: EntityMapping, _ entity: EntitySchema
    ) -> MigrationError {
        MigrationError(
            code: .invalidMapping,
            message: "Entity mapping '\(mapping.name)' maps \(kind) '\(name)', which destination entity "
                + "'\(entity.name)' does not have as a stored \(kind).",
            entityName: entity.name, propertyName: name)
    }
}

/// Where a relationship mapping takes its source objects from, and which entity mapping
/// finds their destination objects.
enum MigrationRelationshipSource {
    /// `$source.key`, or a `FUNCTION($manager, …)` call on it: `mapping` names the entity
    /// mapping, `nil` for each object's own.
    case key(String, mapping: String?)
    /// Any other expression, evaluated for each object.
    case expression(FetchExpression, mapping: String?)

    /// The entity mapping named to find the destination objects; `nil` for each object's own.
    var mappingName: String? {
        switch self {
        case .key(_, let mapping), .expression(_, let mapping): mapping
        }
    }

    /// The source key when the objects come straight from one relationship.
    var sourceKey: String? {
        if case .key(let key, _) = self { return key }
        return nil
    }
}

extension PropertyMapping {
    /// How the relationship mapping's expression reaches its source objects.
    var relationshipSource: MigrationRelationshipSource {
        guard let expression = valueExpression else { return .expression(.constant(.null), mapping: nil) }
        var sources = expression
        var mappingName: String?
        if case .function("FUNCTION", let arguments) = expression, arguments.count == 4,
            case .variable(let target) = arguments[0], MigrationVariable.manager.matches(target),
            case .constant(.string(let selector)) = arguments[1], case .constant(.string(let name)) = arguments[2]
        {
            if selector == MigrationFunction.destinationInstancesForEntityMapping {
                mappingName = name
                sources = arguments[3]
            } else if selector == MigrationFunction.destinationInstancesForSourceRelationship {
                sources = arguments[3]
            }
        }
        if case .keyPathOn(.variable(let variable), let key) = sources, MigrationVariable.source.matches(variable),
            !key.contains(".")
        {
            return .key(key, mapping: mappingName)
        }
        return .expression(sources, mapping: mappingName)
    }
}
