/// What a ``Managed`` attribute declares beyond its name and type, for a model made from classes
/// (``ManagedObjectModel/init(types:configurations:versionIdentifiers:)``).
///
/// ```swift
/// @Managed(.unique) var isbn: String
/// @Managed([.externalStorage, .originalName("image")]) var cover: Data?
/// ```
///
/// Options combine as an array literal. A model loaded from a file or built in code ignores
/// them: its own description of the attribute is what counts.
public struct AttributeOptions: Sendable, Hashable, ExpressibleByArrayLiteral {
    /// Whether the attribute alone is a uniqueness constraint of its entity.
    public var isUnique = false
    /// Whether the attribute carries a single-property index.
    public var isIndexed = false
    /// Whether the attribute lives only in memory and is never stored.
    public var isTransient = false
    /// Whether a store may keep large binary values outside its main file.
    public var allowsExternalStorage = false
    /// Whether the value is kept in a tombstone when the object is deleted (persistent history).
    public var preservesValueOnDeletion = false
    /// The value transformer of a transformable attribute; the attribute is then
    /// ``AttributeType/transformable`` and holds the transformer's data.
    public var transformerName: String?
    /// The attribute's name in an earlier model version, for migration.
    public var originalName: String?
    /// A string mixed into the version hash to force a new version without a structural change.
    public var hashModifier: String?

    /// No options.
    public init() {}

    /// The union of `elements`; for a name or modifier given twice, the last one.
    public init(arrayLiteral elements: AttributeOptions...) {
        for element in elements {
            isUnique = isUnique || element.isUnique
            isIndexed = isIndexed || element.isIndexed
            isTransient = isTransient || element.isTransient
            allowsExternalStorage = allowsExternalStorage || element.allowsExternalStorage
            preservesValueOnDeletion = preservesValueOnDeletion || element.preservesValueOnDeletion
            transformerName = element.transformerName ?? transformerName
            originalName = element.originalName ?? originalName
            hashModifier = element.hashModifier ?? hashModifier
        }
    }

    /// The attribute alone is a uniqueness constraint.
    public static var unique: AttributeOptions { with { $0.isUnique = true } }
    /// The attribute carries a single-property index.
    public static var indexed: AttributeOptions { with { $0.isIndexed = true } }
    /// The attribute lives only in memory.
    public static var transient: AttributeOptions { with { $0.isTransient = true } }
    /// Large binary values may be kept outside the store's main file.
    public static var externalStorage: AttributeOptions { with { $0.allowsExternalStorage = true } }
    /// The value is kept in the history tombstone when the object is deleted.
    public static var preserveValueOnDeletion: AttributeOptions { with { $0.preservesValueOnDeletion = true } }
    /// The attribute is transformable, its values turned into data by the transformer `name`.
    public static func transformable(by name: String) -> AttributeOptions { with { $0.transformerName = name } }
    /// The attribute was called `name` in an earlier model version.
    public static func originalName(_ name: String) -> AttributeOptions { with { $0.originalName = name } }
    /// `modifier` is mixed into the attribute's version hash.
    public static func hashModifier(_ modifier: String) -> AttributeOptions { with { $0.hashModifier = modifier } }

    private static func with(_ change: (inout AttributeOptions) -> Void) -> AttributeOptions {
        var options = AttributeOptions()
        change(&options)
        return options
    }
}

/// What a ``ManagedObject`` subclass declares about its entity, beyond what its properties say,
/// for a model made from classes. Override ``ManagedObject/entityOptions`` to declare them:
///
/// ```swift
/// final class Person: ManagedObject {
///     override class var entityOptions: EntityOptions {
///         EntityOptions(unique: [[\Person.firstName, \Person.lastName]])
///     }
///     @Managed var firstName: String?
///     @Managed var lastName: String?
/// }
/// ```
///
/// The options are the class's own: a subclass that does not override ``ManagedObject/entityOptions``
/// (so that it answers its superclass's options) declares none, and is concrete even when its
/// superclass is abstract. Its superclass's uniqueness constraints still apply to it, as they do
/// to every sub-entity.
public struct EntityOptions: Sendable, Equatable {
    /// Whether the entity has no instances of its own (only its sub-entities do).
    public var isAbstract: Bool
    /// Uniqueness constraints, each a list of key paths to managed properties of the class.
    public var uniquenessConstraints: [[AnyKeyPath & Sendable]]
    /// Fetch indexes, each over a list of key paths to managed properties of the class.
    public var indexes: [[AnyKeyPath & Sendable]]
    /// The entity's name in an earlier model version, for migration.
    public var originalName: String?
    /// A string mixed into the entity's version hash to force a new version.
    public var hashModifier: String?

    /// Options with no constraints or indexes.
    public init(abstract: Bool = false, originalName: String? = nil, hashModifier: String? = nil) {
        self.isAbstract = abstract
        self.uniquenessConstraints = []
        self.indexes = []
        self.originalName = originalName
        self.hashModifier = hashModifier
    }

    /// Options with uniqueness constraints and fetch indexes over properties of `Object`.
    public init<Object: ManagedObject>(
        abstract: Bool = false, unique: [[PartialKeyPath<Object> & Sendable]] = [],
        indexes: [[PartialKeyPath<Object> & Sendable]] = [],
        originalName: String? = nil, hashModifier: String? = nil
    ) {
        self.init(abstract: abstract, originalName: originalName, hashModifier: hashModifier)
        uniquenessConstraints = unique.map { $0.map { $0 as AnyKeyPath & Sendable } }
        self.indexes = indexes.map { $0.map { $0 as AnyKeyPath & Sendable } }
    }

    public static func == (lhs: EntityOptions, rhs: EntityOptions) -> Bool {
        func plain(_ lists: [[AnyKeyPath & Sendable]]) -> [[AnyKeyPath]] { lists.map { $0.map { $0 as AnyKeyPath } } }
        return lhs.isAbstract == rhs.isAbstract && plain(lhs.uniquenessConstraints) == plain(rhs.uniquenessConstraints)
            && plain(lhs.indexes) == plain(rhs.indexes) && lhs.originalName == rhs.originalName
            && lhs.hashModifier == rhs.hashModifier
    }
}
