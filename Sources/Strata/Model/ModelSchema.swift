/// The resolved, immutable form of a frozen ``ManagedObjectModel``: inheritance worked out,
/// properties looked up by name, version hashes computed.
public struct ModelSchema: Sendable {
    /// Every entity, resolved, in the model's order.
    public let entities: [EntitySchema]
    /// Every entity by name.
    public let entitiesByName: [String: EntitySchema]
    /// Every uniqueness constraint of the model, each once, worked out once for the stores'
    /// checks on every save.
    public let uniqueKeys: [UniqueKeys]
    /// For each entity whose objects derived attributes read, the ways back (relationship names
    /// through their inverses, starting on it) to the objects holding those attributes: a save
    /// recomputes them when such an object changes.
    let derivationSources: [String: [[String]]]
    /// Whether any entity has a derived attribute, so that saves without any skip the work.
    let hasDerivations: Bool

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
        self.uniqueKeys = resolved.flatMap(Self.declaredUniqueKeys)
        var sources: [String: Set<[String]>] = [:]
        let byName = entitiesByName
        for entity in resolved {
            for derivation in entity.derivations {
                for path in derivation.expression.keyPaths {
                    // Each relationship the path passes through leads back by the inverses met so
                    // far, nearest first.
                    var current = entity
                    var way: [String] = []
                    for component in path.split(separator: ".").map(String.init) {
                        guard let relationship = current.relationshipsByName[component],
                            let inverse = relationship.inverseName,
                            let destination = byName[relationship.destinationEntityName]
                        else { break }
                        way.insert(inverse, at: 0)
                        sources[destination.name, default: []].insert(way)
                        current = destination
                    }
                }
            }
        }
        self.derivationSources = sources.mapValues { $0.sorted { $0.lexicographicallyPrecedes($1) } }
        self.hasDerivations = resolved.contains { !$0.derivations.isEmpty }
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
    /// Every attribute, inherited ones first (root's first), then the entity's own; a composite
    /// attribute is replaced by its leaf elements, named by their paths (`address.city`).
    public let attributes: [AttributeDescription]
    /// The leaf attribute names of each composite attribute (`address` gives `address.city`,
    /// `address.street`), nested composites included, in declaration order.
    public let compositeLeaves: [String: [String]]
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
    /// The name of each value slot: the persistent attributes (in ``attributes`` order), then
    /// the persistent to-one relationships (in ``relationships`` order), then the transient
    /// attributes and to-one relationships. A managed object keeps its values, and a
    /// ``Snapshot`` its stored ones, in arrays indexed by slot.
    public let slotNames: [String]
    /// How many slots hold persistent values: the first ones, which a snapshot has.
    public let persistentSlotCount: Int
    /// Every slot holding its attribute's default value (`null` for to-one relationships):
    /// what a new object starts with.
    let defaultSlots: [AttributeValue]
    /// The persistent slots in the order of their names: the order the binary codec writes.
    let persistentSlotsByName: [Int]
    /// What each persistent slot holds: an attribute of a type, or a to-one relationship.
    let persistentSlotTypes: [SlotType]
    /// The slots of derived attributes, which the application cannot set.
    let derivedSlots: [Int]
    /// The slots of to-one relationships (persistent and transient) and of object-ID and
    /// untyped attributes: the only ones that can hold object IDs.
    let objectIDSlots: [Int]
    /// The derived attributes, each with its parsed expression, which a save evaluates.
    let derivations: [Derivation]

    /// A derived attribute and the expression that computes it.
    struct Derivation: Sendable {
        let name: String
        let slot: Int
        let type: AttributeType
        let expression: FetchExpression
        /// Whether the expression reads no key path (`now()`): only a save of the object itself
        /// computes it.
        let readsOnlyItself: Bool
    }
    /// What each attribute and relationship name is, and its slot (for to-many relationships,
    /// its position among them).
    let properties: [String: Property]

    /// What a property name is.
    enum PropertyKind: Sendable {
        case attribute, toOne, toMany
    }

    /// The checks the model asks of each attribute that is not derived, in ``attributes`` order.
    let attributeRules: [AttributeRule]
    /// The positions in ``relationships`` of the stored relationships whose count the model
    /// bounds (not optional, or with a minimum or maximum count).
    let boundedRelationships: [Int]

    /// What validation checks of one attribute, without copying its description.
    struct AttributeRule: Sendable {
        /// The attribute's position in ``attributes``.
        let index: Int
        let slot: Int
        let type: AttributeType
        let isOptional: Bool
        /// Whether the attribute has a range, length bounds or a pattern.
        let hasBounds: Bool
    }

    /// What a slot holds.
    enum SlotType: Sendable {
        case attribute(AttributeType)
        /// A to-one relationship to objects of the named entity or its sub-entities.
        case toOne(destination: String)
    }

    /// A property name's kind and slot, and an attribute's type.
    struct Property: Sendable {
        let kind: PropertyKind
        let slot: Int
        var attributeType: AttributeType? = nil
    }

    /// The slot of the attribute or to-one relationship `name`, persistent or transient.
    public func slot(of name: String) -> Int? {
        guard let property = properties[name], property.kind != .toMany else { return nil }
        return property.slot
    }

    init(
        description: EntityDescription, lineage: [EntityDescription], subentityNames: [String],
        descendantNames: [String], versionHash: [UInt8]
    ) {
        self.description = description
        self.superentityNames = lineage.dropLast().reversed().map(\.name)
        self.subentityNames = subentityNames
        self.descendantNames = descendantNames
        let declared = lineage.flatMap(\.attributes)
        self.attributes = declared.flatMap(\.leafAttributes)
        var compositeLeaves: [String: [String]] = [:]
        func noteLeaves(of attribute: AttributeDescription, path: String) {
            guard attribute.type == .composite else { return }
            var nested = attribute
            nested.name = path
            compositeLeaves[path] = nested.leafAttributes.map(\.name)
            for element in attribute.elements { noteLeaves(of: element, path: path + "." + element.name) }
        }
        for attribute in declared { noteLeaves(of: attribute, path: attribute.name) }
        self.compositeLeaves = compositeLeaves
        self.relationships = lineage.flatMap(\.relationships)
        self.fetchedProperties = lineage.flatMap(\.fetchedProperties)
        self.attributesByName = Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { _, own in own })
        self.relationshipsByName = Dictionary(relationships.map { ($0.name, $0) }, uniquingKeysWith: { _, own in own })
        self.versionHash = versionHash
        self.temporaryNamespace = ObjectID.Namespace(storeIdentifier: nil, entityName: description.name)
        // Freezing refuses a model whose property names repeat or shadow inherited ones, so each
        // name has one slot.
        let toOnes = relationships.filter { !$0.isToMany }
        let persistent =
            attributes.filter { !$0.isTransient }.map(\.name) + toOnes.filter { !$0.isTransient }.map(\.name)
        let transient = attributes.filter(\.isTransient).map(\.name) + toOnes.filter(\.isTransient).map(\.name)
        let slotNames = persistent + transient
        let attributesByName = self.attributesByName
        var properties: [String: Property] = [:]
        for (slot, name) in slotNames.enumerated() {
            let type = attributesByName[name]?.type
            properties[name] = Property(kind: type != nil ? .attribute : .toOne, slot: slot, attributeType: type)
        }
        for (position, relationship) in relationships.filter(\.isToMany).enumerated() {
            properties[relationship.name] = Property(kind: .toMany, slot: position)
        }
        self.slotNames = slotNames
        self.persistentSlotCount = persistent.count
        self.properties = properties
        self.attributeRules = self.attributes.indices.compactMap { [attributes = self.attributes] index in
            let attribute = attributes[index]
            guard attribute.derivationExpression == nil, let slot = properties[attribute.name]?.slot else { return nil }
            let hasBounds =
                attribute.minValue != nil || attribute.maxValue != nil || attribute.minLength != nil
                || attribute.maxLength != nil || attribute.regularExpression != nil
            return AttributeRule(
                index: index, slot: slot, type: attribute.type, isOptional: attribute.isOptional, hasBounds: hasBounds)
        }
        self.boundedRelationships = self.relationships.indices.filter { [relationships = self.relationships] index in
            let relationship = relationships[index]
            return !relationship.isTransient
                && (!relationship.isOptional
                    || (relationship.isToMany && (relationship.minCount > 0 || relationship.maxCount > 0)))
        }
        self.persistentSlotsByName = persistent.indices.sorted { persistent[$0] < persistent[$1] }
        let relationshipsByName = self.relationshipsByName
        self.persistentSlotTypes = persistent.map { name in
            attributesByName[name].map { .attribute($0.type) }
                ?? .toOne(destination: relationshipsByName[name]?.destinationEntityName ?? "")
        }
        self.defaultSlots = slotNames.map { attributesByName[$0]?.defaultValue ?? .null }
        self.derivedSlots = attributes.filter { $0.derivationExpression != nil && !$0.isTransient }
            .compactMap { properties[$0.name]?.slot }
        self.objectIDSlots = slotNames.indices.filter { slot in
            let type = attributesByName[slotNames[slot]]?.type
            return relationshipsByName[slotNames[slot]] != nil || type == .objectID || type == .undefined
        }
        self.derivations = attributes.compactMap { attribute in
            guard let text = attribute.derivationExpression, !attribute.isTransient,
                let slot = properties[attribute.name]?.slot, let expression = try? FetchExpression(format: text)
            else { return nil }
            return Derivation(
                name: attribute.name, slot: slot, type: attribute.type, expression: expression,
                readsOnlyItself: expression.keyPaths.isEmpty)
        }
    }

    /// The entity's name.
    public var name: String { description.name }

    /// The leaf attribute that `keys` start with when the first names a composite attribute, and
    /// how many keys its name takes: `["address", "city", "count"]` gives `("address.city", 2)`;
    /// `nil` when the first key is no composite or the keys end inside it.
    public func compositeLeaf(startingWith keys: some Sequence<String>) -> (name: String, keyCount: Int)? {
        var name = ""
        var count = 0
        for key in keys {
            name = count == 0 ? key : name + "." + key
            count += 1
            if compositeLeaves[name] == nil { break }
        }
        guard count > 1, attributesByName[name] != nil else { return nil }
        return (name, count)
    }

    /// The root of the entity's inheritance tree (the entity itself when it has no superentity).
    public var rootEntityName: String { superentityNames.last ?? name }

    /// Whether the entity is `name` or inherits from it.
    public func isKind(of name: String) -> Bool {
        self.name == name || superentityNames.contains(name)
    }

    /// The entity's name, followed by every descendant's when `includingSubentities`: the
    /// entities whose objects a fetch of this one returns.
    package func names(includingSubentities: Bool) -> [String] {
        includingSubentities ? [name] + descendantNames : [name]
    }
}
