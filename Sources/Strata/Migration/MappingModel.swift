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
