/// Turns ``ManagedObject`` subclasses into entities: each class is an entity named
/// ``ManagedObject/entityName``, its superclass (unless ``ManagedObject``) its superentity, its
/// typed properties its attributes and relationships.
struct ClassModelDerivation {
    private(set) var entities: [EntityDescription] = []
    private(set) var classes: [String: ManagedObject.Type] = [:]
    private var issues: [ModelIssue] = []

    /// Derives the entities of `types`, of their superclasses and of every relationship's
    /// destination class.
    ///
    /// - Throws: ``ModelError`` listing every declaration that cannot become part of a model.
    init(types: [ManagedObject.Type]) throws(ModelError) {
        let declarations = try Self.declarations(reachableFrom: types)
        for declaration in declarations {
            classes[declaration.type.entityName] = declaration.type
            entities.append(entity(declaring: declaration))
        }
        resolveInverses(declarations)
        guard issues.isEmpty else {
            throw ModelError(
                code: .invalidModel, message: "The classes do not describe a model (\(issues.count) problem(s)).",
                issues: issues)
        }
    }

    /// The declarations of `types` and of every class they reach through superclasses and
    /// relationships, each once, in the order they are found.
    private static func declarations(reachableFrom types: [ManagedObject.Type]) throws(ModelError) -> [ClassDeclaration]
    {
        var found: [ClassDeclaration] = []
        var seen: Set<ObjectIdentifier> = []
        var pending = types[...]
        while let type = pending.popFirst() {
            guard !seen.contains(ObjectIdentifier(type)) else { continue }
            for declaration in try ClassDeclaration.lineage(of: type)
            where seen.insert(ObjectIdentifier(declaration.type)).inserted {
                found.append(declaration)
                for property in declaration.properties {
                    if case .relationship(let relationship) = property.declaration.kind {
                        pending.append(relationship.destination)
                    }
                }
            }
        }
        return found
    }

    /// The entity `declaration` describes, inverses not yet set.
    private mutating func entity(declaring declaration: ClassDeclaration) -> EntityDescription {
        let name = declaration.type.entityName
        var entity = EntityDescription(
            name: name, isAbstract: declaration.options.isAbstract,
            superentityName: declaration.superclass?.entityName, className: String(describing: declaration.type))
        entity.renamingIdentifier = declaration.options.originalName
        entity.versionHashModifier = declaration.options.hashModifier
        for property in declaration.properties {
            switch property.declaration.kind {
            case .attribute(let declared):
                guard let attribute = attribute(property.name, declared, of: declaration) else { continue }
                entity.attributes.append(attribute)
                if declared.options.isUnique { entity.uniquenessConstraints.append([property.name]) }
            case .relationship(let declared):
                entity.relationships.append(
                    RelationshipDescription(
                        name: property.name, destinationEntityName: declared.destination.entityName, inverseName: nil,
                        isToMany: declared.isToMany, isOrdered: declared.isOrdered, minCount: declared.minCount,
                        maxCount: declared.maxCount, deleteRule: declared.deleteRule, isOptional: declared.isOptional,
                        isTransient: declared.isTransient, renamingIdentifier: declared.originalName,
                        versionHashModifier: declared.hashModifier))
            }
        }
        entity.uniquenessConstraints += declaration.options.uniquenessConstraints.map {
            propertyNames($0, of: declaration, purpose: "uniqueness constraint")
        }
        entity.fetchIndexes = declaration.options.indexes.map { keyPaths in
            let names = propertyNames(keyPaths, of: declaration, purpose: "index")
            return FetchIndexDescription(
                name: "by" + names.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(),
                elements: names.map { FetchIndexDescription.Element(propertyName: $0) })
        }
        return entity
    }

    /// The attribute a `@Managed` property declares; `nil` (and an issue) when its Swift type
    /// stands for no attribute type.
    private mutating func attribute(
        _ name: String, _ declared: PropertyDeclaration.Attribute, of declaration: ClassDeclaration
    ) -> AttributeDescription? {
        let options = declared.options
        let type: AttributeType = options.transformerName == nil ? declared.type : .transformable
        guard type != .undefined || options.isTransient else {
            issues.append(
                ModelIssue(
                    .invalidClassDeclaration, entity: declaration.type.entityName, property: name,
                    "\(declaration.type).\(name) is a \(declared.valueType), which stands for no attribute type; "
                        + "give the type a static attributeType (AttributeValueConvertible) or mark the property "
                        + ".transient."))
            return nil
        }
        var attribute = AttributeDescription(
            name: name, type: type, isOptional: declared.isOptional,
            defaultValue: declared.defaultValue.map { type.coerce($0) ?? $0 } ?? .null)
        attribute.isTransient = options.isTransient
        attribute.isIndexed = options.isIndexed
        attribute.allowsExternalBinaryDataStorage = options.allowsExternalStorage
        attribute.preservesValueInHistoryOnDeletion = options.preservesValueOnDeletion
        attribute.valueTransformerName = options.transformerName
        attribute.renamingIdentifier = options.originalName
        attribute.versionHashModifier = options.hashModifier
        return attribute
    }

    /// The property names `keyPaths` read on `declaration`'s class; an issue for each that is
    /// not one managed property.
    private mutating func propertyNames(
        _ keyPaths: [AnyKeyPath & Sendable], of declaration: ClassDeclaration, purpose: String
    ) -> [String] {
        keyPaths.map { keyPath in
            if let name = KeyPathProbe.path(of: keyPath, from: declaration.type), !name.contains(".") { return name }
            issues.append(
                ModelIssue(
                    .invalidClassDeclaration, entity: declaration.type.entityName,
                    "The \(purpose) \(keyPath) of class \(declaration.type) does not name a managed property of it."))
            return "\(keyPath)"
        }
    }

    /// Sets every relationship's inverse: the one its declaration names, else the relationship
    /// naming it as inverse, else the only relationship of its destination pointing back when the
    /// relationship is also the only one of its entity pointing there.
    private mutating func resolveInverses(_ declarations: [ClassDeclaration]) {
        var named: [RelationshipKey: String] = [:]
        for declaration in declarations {
            for property in declaration.properties {
                guard case .relationship(let declared) = property.declaration.kind, let keyPath = declared.inverse
                else {
                    continue
                }
                let key = RelationshipKey(entity: declaration.type.entityName, name: property.name)
                guard let inverse = KeyPathProbe.path(of: keyPath, from: declared.destination), !inverse.contains("."),
                    let owner = owner(of: inverse, from: declared.destination.entityName)
                else {
                    issues.append(
                        ModelIssue(
                            .unknownInverse, entity: key.entity, property: key.name,
                            "The inverse \(keyPath) of \(declaration.type).\(property.name) is not a relationship of "
                                + "\(declared.destination)."))
                    continue
                }
                named[key] = inverse
                let counterpart = RelationshipKey(entity: owner, name: inverse)
                if named[counterpart] == nil, relationship(counterpart)?.inverseName == nil {
                    setInverse(of: counterpart, to: property.name)
                }
                setInverse(of: key, to: inverse)
            }
        }
        pairRemainingInverses()
    }

    /// Pairs relationships without an inverse between two different entities when each is the
    /// only one of its entity pointing at the other; when several point each way, reports that
    /// their inverses must be named. A relationship of an entity to itself is never paired.
    private mutating func pairRemainingInverses() {
        var open: [Pair: [RelationshipKey]] = [:]
        for entity in entities {
            for relationship in entity.relationships
            where relationship.inverseName == nil && relationship.destinationEntityName != entity.name {
                open[Pair(from: entity.name, to: relationship.destinationEntityName), default: []].append(
                    RelationshipKey(entity: entity.name, name: relationship.name))
            }
        }
        for (pair, keys) in open.sorted(by: { ($0.key.from, $0.key.to) < ($1.key.from, $1.key.to) })
        where pair.from < pair.to {
            guard let back = open[Pair(from: pair.to, to: pair.from)] else { continue }
            guard keys.count == 1, back.count == 1 else {
                // Pairing by position would change with every relationship added: ask for names.
                let names = (keys + back).map { "\($0.entity).\($0.name)" }.joined(separator: ", ")
                issues.append(
                    ModelIssue(
                        .invalidClassDeclaration, entity: pair.from,
                        "\(pair.from) and \(pair.to) have \(keys.count + back.count) relationships pointing at each "
                            + "other with no inverse named (\(names)); name their inverses with inverse:."))
                continue
            }
            setInverse(of: keys[0], to: back[0].name)
            setInverse(of: back[0], to: keys[0].name)
        }
    }

    /// The entity declaring relationship `name`: `entityName` or one of its ancestors.
    private func owner(of name: String, from entityName: String) -> String? {
        var current: String? = entityName
        while let candidate = current, let entity = entities.first(where: { $0.name == candidate }) {
            if entity.relationship(named: name) != nil { return entity.name }
            current = entity.superentityName
        }
        return nil
    }

    private func relationship(_ key: RelationshipKey) -> RelationshipDescription? {
        entities.first { $0.name == key.entity }?.relationship(named: key.name)
    }

    private mutating func setInverse(of key: RelationshipKey, to inverse: String) {
        guard let entityIndex = entities.firstIndex(where: { $0.name == key.entity }),
            let index = entities[entityIndex].relationships.firstIndex(where: { $0.name == key.name })
        else { return }
        entities[entityIndex].relationships[index].inverseName = inverse
    }

    private struct RelationshipKey: Hashable {
        var entity: String
        var name: String
    }

    private struct Pair: Hashable {
        var from: String
        var to: String
    }
}
