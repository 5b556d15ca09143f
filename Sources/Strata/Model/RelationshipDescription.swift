/// Describes a link from one entity to another.
///
/// A relationship is to-one or to-many, optionally ordered, and usually has an inverse
/// on the destination that points back. The delete rule says what deleting the source
/// object does to the destination objects.
public struct RelationshipDescription: Sendable, Hashable {
    /// What deleting the source object does to the objects at the other end.
    public enum DeleteRule: String, Sendable, Hashable, CaseIterable, Codable {
        /// Remove the deleted object from the inverse relationship of each destination.
        case nullify
        /// Delete the destination objects too.
        case cascade
        /// Refuse to delete the source while it has destination objects.
        case deny
        /// Do nothing; the application keeps the inverse consistent itself.
        case noAction
    }

    /// The relationship's name, unique among the entity's properties.
    public var name: String
    /// The name of the entity at the other end.
    public var destinationEntityName: String
    /// The name of the relationship on the destination that points back, if any.
    public var inverseName: String?
    /// Whether the relationship holds a set of objects rather than at most one.
    public var isToMany: Bool
    /// Whether a to-many relationship keeps its objects in order.
    public var isOrdered: Bool
    /// The fewest objects a to-many relationship may hold when saved.
    public var minCount: Int
    /// The most objects a to-many relationship may hold when saved; 0 means no limit.
    /// Always 1 for a to-one relationship.
    public var maxCount: Int
    /// What deleting the source object does to the destination objects.
    public var deleteRule: DeleteRule
    /// Whether the relationship may be empty when saved.
    public var isOptional: Bool
    /// Whether the relationship lives only in memory and is never stored.
    public var isTransient: Bool
    /// The name this relationship had in an earlier model version, for migration.
    public var renamingIdentifier: String?
    /// A string mixed into the version hash to force a new version without a structural change.
    public var versionHashModifier: String?
    /// Free-form key-value pairs for the application.
    public var userInfo: [String: String]

    /// Creates a to-one relationship; the destination may be a superentity of the objects it holds.
    public static func toOne(
        _ name: String, destination: String, inverse: String? = nil, deleteRule: DeleteRule = .nullify,
        isOptional: Bool = true
    ) -> RelationshipDescription {
        RelationshipDescription(
            name: name, destinationEntityName: destination, inverseName: inverse, isToMany: false, isOrdered: false,
            minCount: isOptional ? 0 : 1, maxCount: 1, deleteRule: deleteRule, isOptional: isOptional)
    }

    /// Creates a to-many relationship.
    public static func toMany(
        _ name: String, destination: String, inverse: String? = nil, deleteRule: DeleteRule = .nullify,
        ordered: Bool = false, isOptional: Bool = true, minCount: Int = 0, maxCount: Int = 0
    ) -> RelationshipDescription {
        RelationshipDescription(
            name: name, destinationEntityName: destination, inverseName: inverse, isToMany: true, isOrdered: ordered,
            minCount: minCount, maxCount: maxCount, deleteRule: deleteRule, isOptional: isOptional)
    }

    /// Creates a relationship from all of its parts.
    public init(
        name: String, destinationEntityName: String, inverseName: String?, isToMany: Bool, isOrdered: Bool,
        minCount: Int, maxCount: Int, deleteRule: DeleteRule, isOptional: Bool, isTransient: Bool = false,
        renamingIdentifier: String? = nil, versionHashModifier: String? = nil, userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.destinationEntityName = destinationEntityName
        self.inverseName = inverseName
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.minCount = minCount
        self.maxCount = maxCount
        self.deleteRule = deleteRule
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.renamingIdentifier = renamingIdentifier
        self.versionHashModifier = versionHashModifier
        self.userInfo = userInfo
    }
}
