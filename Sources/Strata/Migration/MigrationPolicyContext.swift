/// What a ``MigrationPolicy`` works with while its entity mapping runs: the mapping, both
/// models, and the means to make destination objects and find the ones other mappings made
/// (Core Data's `NSMigrationManager`, as a policy sees it).
public final class MigrationPolicyContext {
    /// The entity mapping being run.
    public let mapping: EntityMapping
    /// The source model's resolved form.
    public let sourceSchema: ModelSchema
    /// The destination model's resolved form.
    public let destinationSchema: ModelSchema
    let plan: MigrationPlannedMapping
    let converter: MigrationObjectConverter
    let associations: MigrationAssociations
    let registry: MigrationInstanceRegistry
    let destination: any IncrementalStore
    /// The entities the destination store holds.
    let destinationEntityNames: Set<String>
    /// The source object being handled in the first stage.
    var current: MigrationObjectConverter.SourceRecord?
    /// Every object this mapping made, in order.
    private(set) var made: [MigrationDestinationInstance] = []
    /// The objects of the mapping's destination entity associated with a source object, with
    /// that object: the ones whose relationships the second stage sets.
    private(set) var primary:
        [(instance: MigrationDestinationInstance, source: MigrationObjectConverter.SourceRecord)] =
            []
    /// The source object of each of ``primary``, by the instance's ID.
    private var sourceOfPrimary: [ObjectID: MigrationObjectConverter.SourceRecord] = [:]

    init(
        plan: MigrationPlannedMapping, converter: MigrationObjectConverter, sourceSchema: ModelSchema,
        destinationSchema: ModelSchema, associations: MigrationAssociations, registry: MigrationInstanceRegistry,
        destination: any IncrementalStore, destinationEntityNames: Set<String>
    ) {
        self.mapping = plan.mapping
        self.plan = plan
        self.converter = converter
        self.sourceSchema = sourceSchema
        self.destinationSchema = destinationSchema
        self.associations = associations
        self.registry = registry
        self.destination = destination
        self.destinationEntityNames = destinationEntityNames
    }

    /// Makes an object of the mapping's destination entity from `source` with the values of
    /// the mapping's attribute mappings, and associates the two: what Core Data's default
    /// `createDestinationInstances` does.
    @discardableResult
    public func makeDestinationInstance(for source: MigrationSourceInstance) throws -> MigrationDestinationInstance {
        let record = try record(of: source)
        let instance = try insert(plan.destinationEntity, values: try converter.attributeValues(of: record))
        associate(record, with: instance)
        return instance
    }

    /// Makes a new object of the entity `entityName` of the destination model, with its
    /// attributes' default values and no relationships.
    ///
    /// - Throws: ``MigrationError/Code/invalidMapping`` when the destination store holds no
    ///   such entity, or it is abstract.
    public func insertDestinationInstance(ofEntity entityName: String) throws -> MigrationDestinationInstance {
        guard let entity = destinationSchema.entitiesByName[entityName], destinationEntityNames.contains(entityName),
            !entity.description.isAbstract
        else {
            throw MigrationError(
                code: .invalidMapping,
                message: "Migration policy of '\(mapping.name)' inserts a '\(entityName)' object; the destination "
                    + "store holds no such entity, or it is abstract.",
                entityName: entityName)
        }
        var values: [String: AttributeValue] = [:]
        for attribute in entity.attributes where !attribute.isTransient {
            values[attribute.name] = attribute.defaultValue
        }
        return try insert(entity, values: values)
    }

    /// Records that `destination` was made from `source` by this mapping, so that
    /// ``destinationObjectIDs(for:entityMappingNamed:)`` and relationship mappings find it.
    public func associate(_ source: MigrationSourceInstance, with destination: MigrationDestinationInstance) throws {
        associate(try record(of: source), with: destination)
    }

    /// The IDs of the objects the entity mapping named `name` (this one when `nil`) made from
    /// `source`.
    public func destinationObjectIDs(for source: MigrationSourceInstance, entityMappingNamed name: String? = nil)
        -> [ObjectID]
    {
        associations.lookUpAll(source.objectID, mapping: name ?? mapping.name).map(\.newID)
    }

    /// Every object of the entity `entityName` (sub-entities excepted) that a migration policy
    /// made so far, in the order they were made: to reuse one, such as a shared object made
    /// from a value many source objects hold.
    public func destinationInstances(ofEntity entityName: String) -> [MigrationDestinationInstance] {
        registry.instances(ofEntity: entityName)
    }

    /// The object with the ID `id`, when a migration policy made it.
    public func destinationInstance(_ id: ObjectID) -> MigrationDestinationInstance? { registry.instance(id) }

    /// Sets the relationships of `destination` that the mapping's relationship mappings give,
    /// from the source object it was made from: what Core Data's default
    /// `createRelationships` does. An object not made from a source object is left as it is.
    public func setMappedRelationships(of destination: MigrationDestinationInstance) throws {
        guard let source = sourceOfPrimary[destination.objectID] else { return }
        let related = try converter.relationships(of: source, onlyMapped: true)
        destination.setRelated(toOne: related.toOne, toMany: related.toMany)
    }

    private func record(of source: MigrationSourceInstance) throws -> MigrationObjectConverter.SourceRecord {
        if let current, current.objectID == source.objectID { return current }
        guard source.entityName == plan.sourceEntity.name, let record = try converter.read([source.objectID]).first
        else {
            throw MigrationError(
                code: .invalidMapping,
                message: "Migration policy of '\(mapping.name)' handed \(source.objectID), which is not a "
                    + "'\(plan.sourceEntity.name)' object of the source store.",
                entityName: source.entityName)
        }
        return record
    }

    private func associate(_ record: MigrationObjectConverter.SourceRecord, with instance: MigrationDestinationInstance)
    {
        associations.associate(
            record.objectID, with: instance.objectID, at: registry.places[instance.objectID] ?? -1,
            mapping: mapping.name)
        if instance.entity.name == plan.destinationEntity.name && sourceOfPrimary[instance.objectID] == nil {
            primary.append((instance, record))
            sourceOfPrimary[instance.objectID] = record
        }
    }

    private func insert(_ entity: EntitySchema, values: [String: AttributeValue]) throws -> MigrationDestinationInstance
    {
        let ids = try destination.permanentIDs(forEntities: [entity.name])
        guard ids.count == 1, let id = ids.first, id.entityName == entity.name,
            id.storeIdentifier == destination.identifier
        else {
            throw StoreError(
                code: .corrupt, message: "The destination handed out \(ids.count) IDs for one '\(entity.name)' object.")
        }
        let instance = MigrationDestinationInstance(objectID: id, entity: entity, values: values, registry: registry)
        registry.add(instance, at: associations.addPolicyObject())
        made.append(instance)
        return instance
    }
}

@available(*, unavailable) extension MigrationPolicyContext: Sendable {}
