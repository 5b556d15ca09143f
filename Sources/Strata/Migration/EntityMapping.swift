/// How the objects of one source entity become objects of one destination entity: Core
/// Data's `NSEntityMapping`.
///
/// A ``Kind/copy`` or ``Kind/transform`` mapping makes one destination object for each
/// source object of ``sourceEntityName`` (sub-entities have mappings of their own) that
/// ``sourceFilter`` accepts, and sets its properties from the ``attributeMappings`` and
/// ``relationshipMappings``; a destination property without a mapping keeps its default
/// value. ``Kind/add`` and ``Kind/remove`` make nothing: the destination entity starts empty,
/// or the source entity's objects are left behind.
public struct EntityMapping: Sendable, Hashable {
    /// What an entity mapping does, as Core Data names it.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The entity is new in the destination model; no objects are made.
        case add
        /// The entity is gone from the destination model; its objects are left behind.
        case remove
        /// The entity is unchanged: every object is copied as it is.
        case copy
        /// The entity changed: objects are made from the property mappings.
        case transform
        /// Objects are made by a migration policy (``migrationPolicyName``).
        case custom
    }

    /// The mapping's name, unique in its mapping model (Core Data's convention:
    /// `SourceToDestination`).
    public var name: String
    /// What the mapping does.
    public var kind: Kind
    /// The entity whose objects are read; `nil` for ``Kind/add``.
    public var sourceEntityName: String?
    /// The source entity's version hash, which ties the mapping to a model version.
    public var sourceEntityVersionHash: [UInt8]?
    /// The entity whose objects are made; `nil` for ``Kind/remove``.
    public var destinationEntityName: String?
    /// The destination entity's version hash.
    public var destinationEntityVersionHash: [UInt8]?
    /// How each destination attribute gets its value.
    public var attributeMappings: [PropertyMapping]
    /// How each destination relationship gets its objects.
    public var relationshipMappings: [PropertyMapping]
    /// Which source objects are migrated; `nil` for all of them.
    public var sourceFilter: FetchPredicate?
    /// The name a custom migration policy is registered under; `nil` for the default.
    public var migrationPolicyName: String?
    /// Free-form key-value pairs for the application and its policies.
    public var userInfo: [String: String]

    /// Creates an entity mapping.
    public init(
        name: String, kind: Kind, sourceEntityName: String?, destinationEntityName: String?,
        attributeMappings: [PropertyMapping] = [], relationshipMappings: [PropertyMapping] = [],
        sourceFilter: FetchPredicate? = nil, migrationPolicyName: String? = nil, userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.kind = kind
        self.sourceEntityName = sourceEntityName
        self.destinationEntityName = destinationEntityName
        self.attributeMappings = attributeMappings
        self.relationshipMappings = relationshipMappings
        self.sourceFilter = sourceFilter
        self.migrationPolicyName = migrationPolicyName
        self.userInfo = userInfo
    }

    /// Whether the mapping makes destination objects from source objects.
    /// Whether the mapping copies an unchanged entity as it is — kind ``Kind/copy``, the same
    /// name and version hash on both sides, every property mapping copying the source's
    /// property of its name — so that values pass through as the source holds them, mapped
    /// or not.
    func passesValuesThrough(from source: EntitySchema, to destination: EntitySchema) -> Bool {
        kind == .copy && source.name == destination.name && source.versionHash == destination.versionHash
            && attributeMappings.allSatisfy { $0.copiedSourceKey == $0.name }
            && relationshipMappings.allSatisfy {
                $0.relationshipSource.sourceKey == $0.name && $0.relationshipSource.mappingName == nil
            }
    }

    var makesObjects: Bool {
        sourceEntityName != nil && destinationEntityName != nil && kind != .add && kind != .remove
    }
}
