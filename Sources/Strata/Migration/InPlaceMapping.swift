/// A mapping model read as a store that changes its file in place needs it: which source
/// entity each destination entity's objects were, and where each stored property of theirs
/// takes its value from.
///
/// Only a mapping that makes exactly one object of each source object, keeping it where its
/// relationships find it, can run in place: no migration policy, no source filter, one entity
/// mapping per source and per destination entity, attribute values copied from one source
/// attribute (converted to the destination's type), constant or left at the default, and each
/// relationship filled from one source relationship stored the same way. Anything else is
/// ``Declined``, with the reason, and the migration copies the store instead.
package struct InPlaceMapping: Sendable {
    /// Where a destination attribute's value comes from.
    package enum AttributeSource: Sendable, Equatable {
        /// The source object's attribute `name`, of type `type`, converted when the destination
        /// attribute's type differs.
        case attribute(String, type: AttributeType)
        /// The same value for every object: a constant, or the attribute's default value.
        case value(AttributeValue)
    }

    /// One destination entity whose objects are source objects of one entity.
    package struct Entity: Sendable {
        /// The destination entity.
        package let destination: EntitySchema
        /// The source entity its objects were.
        package let source: EntitySchema
        /// The source of every stored attribute of the destination entity.
        package let attributes: [String: AttributeSource]
        /// The source relationship of each stored destination relationship filled from one;
        /// the others are left empty.
        package let relationships: [String: String]
    }

    /// Why a mapping cannot run in place.
    package struct Declined: Error, CustomStringConvertible, Sendable {
        package let description: String

        package init(description: String) { self.description = description }
    }

    /// The entities whose objects are kept, by source entity name.
    package let entitiesBySource: [String: Entity]
    /// The same, by destination entity name.
    package let entitiesByDestination: [String: Entity]

    /// Reads `mapping` between two schemas: of it, the entities `sourceEntityNames` a store
    /// holds and `destinationEntityNames` it will hold count.
    ///
    /// - Throws: ``Declined`` when the mapping cannot run in place.
    package init(
        _ mapping: MappingModel, source: ModelSchema, sourceEntityNames: Set<String>, destination: ModelSchema,
        destinationEntityNames: Set<String>
    ) throws(Declined) {
        var bySource: [String: (EntityMapping, EntitySchema, EntitySchema)] = [:]
        var destinations: Set<String> = []
        var mappingSources: [String: String] = [:]
        for entityMapping in mapping.entityMappings {
            guard mappingSources[entityMapping.name] == nil,
                entityMapping.sourceEntityName.map({ source.entitiesByName[$0] != nil }) ?? true,
                entityMapping.destinationEntityName.map({ destination.entitiesByName[$0] != nil }) ?? true
            else { throw Declined(description: "entity mapping '\(entityMapping.name)' is not well formed") }
            mappingSources[entityMapping.name] = entityMapping.sourceEntityName ?? ""
            guard entityMapping.kind != .custom, entityMapping.migrationPolicyName == nil,
                entityMapping.sourceFilter == nil
            else {
                throw Declined(
                    description: "entity mapping '\(entityMapping.name)' runs a migration policy or filters its source")
            }
            guard entityMapping.makesObjects, let sourceName = entityMapping.sourceEntityName,
                sourceEntityNames.contains(sourceName), let destinationName = entityMapping.destinationEntityName
            else { continue }
            guard let sourceEntity = source.entitiesByName[sourceName],
                let destinationEntity = destination.entitiesByName[destinationName],
                destinationEntityNames.contains(destinationName)
            else { throw Declined(description: "entity mapping '\(entityMapping.name)' names an unknown entity") }
            guard bySource[sourceName] == nil, destinations.insert(destinationName).inserted else {
                throw Declined(
                    description: "more than one entity mapping reads '\(sourceName)' or makes '\(destinationName)'")
            }
            bySource[sourceName] = (entityMapping, sourceEntity, destinationEntity)
        }
        var entities: [String: Entity] = [:]
        for (sourceName, (entityMapping, sourceEntity, destinationEntity)) in bySource {
            entities[sourceName] =
                entityMapping.passesValuesThrough(from: sourceEntity, to: destinationEntity)
                ? Entity(
                    destination: destinationEntity, source: sourceEntity,
                    attributes: Dictionary(
                        uniqueKeysWithValues: sourceEntity.attributes.filter { !$0.isTransient }.map {
                            ($0.name, AttributeSource.attribute($0.name, type: $0.type))
                        }),
                    relationships: Dictionary(
                        uniqueKeysWithValues: sourceEntity.relationships.filter { !$0.isTransient }.map {
                            ($0.name, $0.name)
                        }))
                : Entity(
                    destination: destinationEntity, source: sourceEntity,
                    attributes: try Self.attributes(of: entityMapping, from: sourceEntity, to: destinationEntity),
                    relationships: try Self.relationships(
                        of: entityMapping, from: sourceEntity, to: destinationEntity, source: source,
                        mappingSources: mappingSources))
        }
        entitiesBySource = entities
        entitiesByDestination = Dictionary(
            entities.values.map { ($0.destination.name, $0) }, uniquingKeysWith: { first, _ in first })
        try checkRelationshipTargets(source: source)
        try checkInverses(destination: destination)
    }

    /// Reads the mapping of `step` between the entities of `configuration` (every entity when
    /// `nil`) in its source and destination models.
    ///
    /// - Throws: ``Declined`` when the mapping cannot run in place.
    package init(_ step: InPlaceMigrationRequest.Step, configuration: String?) throws(Declined) {
        try self.init(
            step.mapping, source: step.sourceModel.schema,
            sourceEntityNames: Set(step.sourceModel.entityNames(inConfiguration: configuration)),
            destination: step.destinationModel.schema,
            destinationEntityNames: Set(step.destinationModel.entityNames(inConfiguration: configuration)))
    }

    private static func attributes(
        of mapping: EntityMapping, from source: EntitySchema, to destination: EntitySchema
    ) throws(Declined) -> [String: AttributeSource] {
        var mapped: [String: PropertyMapping] = [:]
        for property in mapping.attributeMappings {
            guard destination.attributesByName[property.name]?.isTransient == false else {
                throw Declined(description: "'\(destination.name)' stores no attribute '\(property.name)'")
            }
            mapped[property.name] = property
        }
        var attributes: [String: AttributeSource] = [:]
        for attribute in destination.attributes where !attribute.isTransient {
            guard attribute.type != .objectID else {
                throw Declined(
                    description: "'\(destination.name).\(attribute.name)' holds object IDs, which a copy renumbers")
            }
            let expression = mapped[attribute.name]?.valueExpression
            switch expression {
            case nil:
                attributes[attribute.name] = .value(attribute.defaultValue)
            case .constant(let value)?:
                guard let converted = value.converted(to: attribute.type) else {
                    throw Declined(description: "the constant for '\(destination.name).\(attribute.name)' does not fit")
                }
                attributes[attribute.name] = .value(converted)
            default:
                guard let key = mapped[attribute.name]?.copiedSourceKey,
                    let sourceAttribute = source.attributesByName[key], !sourceAttribute.isTransient
                else {
                    throw Declined(
                        description: "'\(destination.name).\(attribute.name)' is not a source attribute or a constant")
                }
                attributes[attribute.name] = .attribute(key, type: sourceAttribute.type)
            }
        }
        return attributes
    }

    private static func relationships(
        of mapping: EntityMapping, from source: EntitySchema, to destination: EntitySchema, source schema: ModelSchema,
        mappingSources: [String: String]
    ) throws(Declined) -> [String: String] {
        var relationships: [String: String] = [:]
        for property in mapping.relationshipMappings {
            guard destination.relationshipsByName[property.name]?.isTransient == false else {
                throw Declined(description: "'\(destination.name)' stores no relationship '\(property.name)'")
            }
            guard property.valueExpression != nil else { continue }
            guard let relationship = destination.relationshipsByName[property.name], !relationship.isTransient,
                case .key(let key, let mappingName) = property.relationshipSource,
                let sourceRelationship = source.relationshipsByName[key], !sourceRelationship.isTransient,
                sourceRelationship.isToMany == relationship.isToMany
            else {
                throw Declined(
                    description: "'\(destination.name).\(property.name)' is not filled from a source relationship "
                        + "of its kind")
            }
            if let mappingName {
                let target = sourceRelationship.destinationEntityName
                guard mappingSources[mappingName] == target,
                    schema.entitiesByName[target]?.descendantNames.isEmpty == true
                else {
                    throw Declined(
                        description: "'\(destination.name).\(property.name)' takes only some of its source's objects")
                }
            }
            relationships[property.name] = key
        }
        return relationships
    }

    /// Declines unless every object a kept relationship holds becomes an object it can hold.
    private func checkRelationshipTargets(source: ModelSchema) throws(Declined) {
        for entity in entitiesBySource.values {
            for (name, sourceName) in entity.relationships {
                guard let relationship = entity.destination.relationshipsByName[name],
                    let target = entity.source.relationshipsByName[sourceName].flatMap({
                        source.entitiesByName[$0.destinationEntityName]
                    })
                else { continue }
                for candidate in [target.name] + target.descendantNames {
                    guard let made = entitiesBySource[candidate] else { continue }
                    guard made.destination.isKind(of: relationship.destinationEntityName) else {
                        throw Declined(
                            description: "'\(entity.destination.name).\(name)' cannot hold the "
                                + "'\(made.destination.name)' objects its source holds")
                    }
                }
            }
        }
    }

    /// Declines unless both sides of every destination relationship with an inverse come from
    /// the two sides of one source relationship, or are both left empty.
    private func checkInverses(destination: ModelSchema) throws(Declined) {
        for entity in entitiesByDestination.values {
            for relationship in entity.destination.relationships where !relationship.isTransient {
                guard let inverseName = relationship.inverseName else { continue }
                let sourceName = entity.relationships[relationship.name]
                let sourceInverse = sourceName.flatMap { entity.source.relationshipsByName[$0]?.inverseName }
                guard sourceName == nil || sourceInverse != nil else {
                    throw Declined(
                        description: "'\(entity.destination.name).\(relationship.name)' has an inverse, its source none"
                    )
                }
                for other in entitiesByDestination.values
                where other.destination.isKind(of: relationship.destinationEntityName)
                    && other.destination.relationshipsByName[inverseName] != nil
                {
                    guard other.relationships[inverseName] == sourceInverse else {
                        throw Declined(
                            description: "'\(entity.destination.name).\(relationship.name)' and its inverse come "
                                + "from different source relationships")
                    }
                }
            }
        }
    }
}
