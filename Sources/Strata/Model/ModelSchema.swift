/// The resolved, immutable form of a frozen ``ManagedObjectModel``: inheritance worked out,
/// properties looked up by name, version hashes computed.
public struct ModelSchema: Sendable {
    /// Every entity, resolved, in the model's order.
    public let entities: [EntitySchema]
    /// Every entity by name.
    public let entitiesByName: [String: EntitySchema]

    init(entities descriptions: [EntityDescription]) {
        let lineages = EntityLineage(descriptions)
        var children: [String: [String]] = [:]
        for entity in descriptions {
            if let parent = entity.superentityName { children[parent, default: []].append(entity.name) }
        }
        var hashes: [String: [UInt8]] = [:]
        func hash(of entity: EntityDescription) -> [UInt8] {
            if let known = hashes[entity.name] { return known }
            let lineage = lineages.lineage(of: entity)
            let superHash = lineage.dropFirst().first.map(hash(of:))
            let value = VersionHash.entity(entity, superentityHash: superHash, lineage: lineage.reversed())
            hashes[entity.name] = value
            return value
        }
        var resolved: [EntitySchema] = []
        for entity in descriptions {
            let lineage = Array(lineages.lineage(of: entity).reversed())
            var descendants: [String] = []
            var queue = children[entity.name] ?? []
            while !queue.isEmpty {
                let next = queue.removeFirst()
                descendants.append(next)
                queue += children[next] ?? []
            }
            resolved.append(
                EntitySchema(
                    description: entity, lineage: lineage, subentityNames: children[entity.name] ?? [],
                    descendantNames: descendants, versionHash: hash(of: entity)))
        }
        self.entities = resolved
        self.entitiesByName = Dictionary(resolved.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The version hash of every entity, by entity name (32 bytes each).
    public var entityVersionHashes: [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0.versionHash) })
    }
}

/// One entity of a frozen model with everything inheritance gives it.
public final class EntitySchema: Sendable {
    /// The entity as declared.
    public let description: EntityDescription
    /// The names of the entity's superentities, nearest first.
    public let superentityNames: [String]
    /// The names of the entities that inherit directly from this one.
    public let subentityNames: [String]
    /// The names of every entity below this one, at any depth.
    public let descendantNames: [String]
    /// Every attribute, inherited ones first (root's first), then the entity's own.
    public let attributes: [AttributeDescription]
    /// Every relationship, inherited ones first.
    public let relationships: [RelationshipDescription]
    /// Every fetched property, inherited ones first.
    public let fetchedProperties: [FetchedPropertyDescription]
    /// Every attribute by name.
    public let attributesByName: [String: AttributeDescription]
    /// Every relationship by name.
    public let relationshipsByName: [String: RelationshipDescription]
    /// The entity's version hash (32 bytes), equal to Core Data's for the same entity.
    public let versionHash: [UInt8]
    /// The namespace of the entity's temporary IDs.
    let temporaryNamespace: ObjectID.Namespace
    /// What each attribute and relationship name is, for lookups that need no more.
    let propertyKinds: [String: PropertyKind]

    /// What a property name is.
    enum PropertyKind: Sendable {
        case attribute, toOne, toMany
    }

    init(
        description: EntityDescription, lineage: [EntityDescription], subentityNames: [String],
        descendantNames: [String], versionHash: [UInt8]
    ) {
        self.description = description
        self.superentityNames = lineage.dropLast().reversed().map(\.name)
        self.subentityNames = subentityNames
        self.descendantNames = descendantNames
        self.attributes = lineage.flatMap(\.attributes)
        self.relationships = lineage.flatMap(\.relationships)
        self.fetchedProperties = lineage.flatMap(\.fetchedProperties)
        self.attributesByName = Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { _, own in own })
        self.relationshipsByName = Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { _, own in own })
        self.versionHash = versionHash
        self.temporaryNamespace = ObjectID.Namespace(storeIdentifier: nil, entityName: description.name)
        self.propertyKinds = Dictionary(
            attributes.map { ($0.name, PropertyKind.attribute) }
                + relationships.map { ($0.name, $0.isToMany ? PropertyKind.toMany : .toOne) },
            uniquingKeysWith: { first, _ in first })
    }

    /// The entity's name.
    public var name: String { description.name }

    /// The root of the entity's inheritance tree (the entity itself when it has no superentity).
    public var rootEntityName: String { superentityNames.last ?? name }

    /// Whether the entity is `name` or inherits from it.
    public func isKind(of name: String) -> Bool {
        self.name == name || superentityNames.contains(name)
    }
}
