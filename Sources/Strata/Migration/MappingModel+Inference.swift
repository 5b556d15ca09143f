extension MappingModel {
    /// Works out the mapping from `source` to `destination` that Core Data's lightweight
    /// migration infers.
    ///
    /// An entity, attribute or relationship of `destination` is the one of `source` with its
    /// name, or with the name its ``EntityDescription/renamingIdentifier`` (or the property's)
    /// gives. From that it infers:
    /// - entities added (an ``EntityMapping/Kind/add`` mapping: they start empty) and removed
    ///   (``EntityMapping/Kind/remove``: their objects are left behind);
    /// - entities whose version hash is unchanged (``EntityMapping/Kind/copy``) and changed
    ///   ones (``EntityMapping/Kind/transform``), sub-entities each with its own mapping, so
    ///   that changes of inheritance are carried too;
    /// - attributes added (their default value), removed, renamed, made optional or not (a
    ///   missing value becomes the default value), and changed to a type their values convert
    ///   to: numbers and Booleans to one another, numbers, UUIDs and URLs to strings, binary
    ///   data to and from transformable values;
    /// - relationships added (empty), removed, renamed, and changed between to-one and
    ///   to-many, ordered or not, in inverse or delete rule.
    ///
    /// Whether every value fits is known only when the objects are migrated: a missing value
    /// of a non-optional property without a default, a number out of its new range, or a
    /// to-many relationship with several objects that became to-one fails the migration with
    /// ``MigrationError/Code/invalidValue`` naming the object.
    ///
    /// - Throws: ``MigrationError`` with code ``MigrationError/Code/cannotInferMapping``
    ///   naming the entity, property and change when a change cannot be inferred: an attribute
    ///   whose values cannot be converted to its new type, a relationship whose destination is
    ///   now an unrelated entity, an entity with objects made abstract, two destination
    ///   entities claiming one source entity, or a model that is not valid.
    public static func inferred(from source: ManagedObjectModel, to destination: ManagedObjectModel)
        throws(MigrationError) -> MappingModel
    {
        try freeze(source, as: "source")
        try freeze(destination, as: "destination")
        var inference = MappingInference(source: source.schema, destination: destination.schema)
        return MappingModel(entityMappings: try inference.entityMappings())
    }

    private static func freeze(_ model: ManagedObjectModel, as role: String) throws(MigrationError) {
        do {
            try model.freeze()
        } catch {
            throw MigrationError(
                code: .cannotInferMapping, message: "Cannot infer a mapping: the \(role) model is not valid. \(error)",
                underlying: error)
        }
    }
}

/// The work of ``MappingModel/inferred(from:to:)``: which source entity and property each
/// destination one comes from.
private struct MappingInference {
    let source: ModelSchema
    let destination: ModelSchema
    /// The source entity of each destination entity that has one.
    private var sourceOfDestination: [String: EntitySchema] = [:]
    /// The destination entity of each source entity that has one.
    private var destinationOfSource: [String: EntitySchema] = [:]

    init(source: ModelSchema, destination: ModelSchema) {
        self.source = source
        self.destination = destination
    }

    mutating func entityMappings() throws(MigrationError) -> [EntityMapping] {
        for entity in destination.entities {
            guard
                let origin = source.entitiesByName[entity.description.renamingIdentifier ?? entity.name]
                    ?? source.entitiesByName[entity.name]
            else { continue }
            if let claimant = destinationOfSource[origin.name] {
                throw MigrationError(
                    code: .cannotInferMapping,
                    message: "Cannot infer a mapping: destination entities '\(claimant.name)' and '\(entity.name)' "
                        + "both come from source entity '\(origin.name)'.",
                    entityName: entity.name)
            }
            sourceOfDestination[entity.name] = origin
            destinationOfSource[origin.name] = entity
        }
        var mappings: [EntityMapping] = []
        for entity in destination.entities {
            guard let origin = sourceOfDestination[entity.name] else {
                var added = EntityMapping(
                    name: "Add\(entity.name)", kind: .add, sourceEntityName: nil, destinationEntityName: entity.name)
                added.destinationEntityVersionHash = entity.versionHash
                mappings.append(added)
                continue
            }
            mappings.append(try mapping(from: origin, to: entity))
        }
        for entity in source.entities where destinationOfSource[entity.name] == nil {
            var removed = EntityMapping(
                name: "Remove\(entity.name)", kind: .remove, sourceEntityName: entity.name, destinationEntityName: nil)
            removed.sourceEntityVersionHash = entity.versionHash
            mappings.append(removed)
        }
        return mappings
    }

    private func mapping(from origin: EntitySchema, to entity: EntitySchema) throws(MigrationError) -> EntityMapping {
        if entity.description.isAbstract && !origin.description.isAbstract {
            throw MigrationError(
                code: .cannotInferMapping,
                message: "Cannot infer a mapping for entity '\(entity.name)': it became abstract, so the objects of "
                    + "'\(origin.name)' would have no entity.",
                entityName: entity.name)
        }
        var attributes: [PropertyMapping] = []
        for attribute in entity.attributes where !attribute.isTransient {
            attributes.append(try mapping(of: attribute, in: entity, from: origin))
        }
        var relationships: [PropertyMapping] = []
        for relationship in entity.relationships where !relationship.isTransient {
            relationships.append(try mapping(of: relationship, in: entity, from: origin))
        }
        let unchanged = origin.versionHash == entity.versionHash && origin.name == entity.name
        var mapping = EntityMapping(
            name: "\(origin.name)To\(entity.name)", kind: unchanged ? .copy : .transform,
            sourceEntityName: origin.name, destinationEntityName: entity.name, attributeMappings: attributes,
            relationshipMappings: relationships)
        mapping.sourceEntityVersionHash = origin.versionHash
        mapping.destinationEntityVersionHash = entity.versionHash
        return mapping
    }

    private func mapping(of attribute: AttributeDescription, in entity: EntitySchema, from origin: EntitySchema)
        throws(MigrationError) -> PropertyMapping
    {
        guard
            let old = [attribute.renamingIdentifier, attribute.name].lazy.compactMap({ $0 })
                .compactMap({ origin.attributesByName[$0] }).first(where: { !$0.isTransient })
        else { return PropertyMapping(name: attribute.name, valueExpression: nil) }
        guard attribute.type.canConvert(from: old.type) else {
            throw MigrationError(
                code: .cannotInferMapping,
                message: "Cannot infer a mapping for '\(entity.name).\(attribute.name)': its type changed from "
                    + "\(old.type.modelFileName) to \(attribute.type.modelFileName), which its values cannot be "
                    + "converted to. Give a mapping model with a value expression for it.",
                entityName: entity.name, propertyName: attribute.name)
        }
        return PropertyMapping(name: attribute.name, valueExpression: .source(old.name))
    }

    private func mapping(
        of relationship: RelationshipDescription, in entity: EntitySchema, from origin: EntitySchema
    ) throws(MigrationError) -> PropertyMapping {
        guard
            let old = [relationship.renamingIdentifier, relationship.name].lazy.compactMap({ $0 })
                .compactMap({ origin.relationshipsByName[$0] }).first(where: { !$0.isTransient }),
            let oldTarget = destinationOfSource[old.destinationEntityName],
            let newTarget = destination.entitiesByName[relationship.destinationEntityName]
        else { return PropertyMapping(name: relationship.name, valueExpression: nil) }
        guard oldTarget.isKind(of: newTarget.name) || newTarget.isKind(of: oldTarget.name) else {
            throw MigrationError(
                code: .cannotInferMapping,
                message: "Cannot infer a mapping for '\(entity.name).\(relationship.name)': it held "
                    + "'\(old.destinationEntityName)' objects, which become '\(oldTarget.name)' objects, and now "
                    + "holds '\(newTarget.name)' objects, an unrelated entity.",
                entityName: entity.name, propertyName: relationship.name)
        }
        return PropertyMapping(
            name: relationship.name,
            valueExpression: .destinationInstances(
                forSourceRelationshipNamed: old.name, sourceInstances: .source(old.name)))
    }
}
