/// How the objects of a store written with one model version become the objects of another:
/// Core Data's `NSMappingModel`, one ``EntityMapping`` per source or destination entity.
///
/// Most version changes need no hand-written mapping: ``inferred(from:to:)`` works one out
/// (Core Data's lightweight migration). ``MigrationManager`` runs a mapping model against a
/// store, and a ``MigrationPlan`` picks the mapping models for each step between versions.
///
/// ```swift
/// let mapping = try MappingModel.inferred(from: version1, to: version2)
/// try MigrationManager(sourceModel: version1, destinationModel: version2)
///     .migrateStore(at: url, type: .sqlite, mapping: mapping)
/// ```
public struct MappingModel: Sendable, Hashable {
    /// The entity mappings, run in this order.
    public var entityMappings: [EntityMapping]

    /// Creates a mapping model from its entity mappings.
    public init(entityMappings: [EntityMapping]) {
        self.entityMappings = entityMappings
    }

    /// The entity mapping named `name`, if any.
    public func entityMapping(named name: String) -> EntityMapping? {
        entityMappings.first { $0.name == name }
    }

    /// The version hash of each source entity the mappings name, by entity name.
    public var sourceEntityVersionHashes: [String: [UInt8]] {
        Self.hashes(entityMappings.map { ($0.sourceEntityName, $0.sourceEntityVersionHash) })
    }

    /// The version hash of each destination entity the mappings name, by entity name.
    public var destinationEntityVersionHashes: [String: [UInt8]] {
        Self.hashes(entityMappings.map { ($0.destinationEntityName, $0.destinationEntityVersionHash) })
    }

    private static func hashes(_ pairs: [(String?, [UInt8]?)]) -> [String: [UInt8]] {
        var hashes: [String: [UInt8]] = [:]
        for case (let name?, let hash?) in pairs { hashes[name] = hash }
        return hashes
    }
}

extension MappingModel {
    /// A mapping model tied to its models: `entityMappings` with the version hashes of the
    /// entities they name filled in from `sourceModel` and `destinationModel`, so that a
    /// ``MigrationPlan`` finds it between those two versions. Hashes a mapping already has
    /// are kept.
    ///
    /// - Throws: ``ModelError`` when either model is not valid.
    public init(
        entityMappings: [EntityMapping], sourceModel: ManagedObjectModel, destinationModel: ManagedObjectModel
    ) throws(ModelError) {
        try sourceModel.freeze()
        try destinationModel.freeze()
        self.init(
            entityMappings: entityMappings.map { mapping in
                var mapping = mapping
                if mapping.sourceEntityVersionHash == nil, let name = mapping.sourceEntityName {
                    mapping.sourceEntityVersionHash = sourceModel.schema.entitiesByName[name]?.versionHash
                }
                if mapping.destinationEntityVersionHash == nil, let name = mapping.destinationEntityName {
                    mapping.destinationEntityVersionHash = destinationModel.schema.entitiesByName[name]?.versionHash
                }
                return mapping
            })
    }

    /// The mapping that copies every entity of `schema` as it is, each property from the one
    /// of its name: what moving a store to another type runs.
    static func identity(of schema: ModelSchema) -> MappingModel {
        MappingModel(
            entityMappings: schema.entities.map { entity in
                var mapping = EntityMapping(
                    name: "\(entity.name)To\(entity.name)", kind: .copy, sourceEntityName: entity.name,
                    destinationEntityName: entity.name,
                    attributeMappings: entity.attributes.filter { !$0.isTransient }.map {
                        PropertyMapping(name: $0.name, valueExpression: .source($0.name))
                    },
                    relationshipMappings: entity.relationships.filter { !$0.isTransient }.map {
                        PropertyMapping(
                            name: $0.name,
                            valueExpression: .destinationInstances(
                                forSourceRelationshipNamed: $0.name, sourceInstances: .source($0.name)))
                    })
                mapping.sourceEntityVersionHash = entity.versionHash
                mapping.destinationEntityVersionHash = entity.versionHash
                return mapping
            })
    }
}
