/// Describes one kind of object: its name, place in the inheritance tree, and properties.
///
/// An entity lists only its *own* properties; those of its superentity are inherited.
/// Once the entity belongs to a frozen ``ManagedObjectModel``, the model answers
/// questions that need the whole tree (inherited properties, subentities, version hash).
public struct EntityDescription: Sendable, Hashable {
    /// The entity's name, unique in its model.
    public var name: String
    /// The name of the class that represents the entity's objects in code, if any.
    public var className: String?
    /// Whether the entity has no instances of its own (only its subentities do).
    public var isAbstract: Bool
    /// The name of the entity this one inherits from, if any.
    public var superentityName: String?
    /// The entity's own attributes.
    public var attributes: [AttributeDescription]
    /// The entity's own relationships.
    public var relationships: [RelationshipDescription]
    /// The entity's own fetched properties.
    public var fetchedProperties: [FetchedPropertyDescription]
    /// Sets of property names whose combined values must be unique among the entity's objects.
    public var uniquenessConstraints: [[String]]
    /// The entity's fetch indexes.
    public var fetchIndexes: [FetchIndexDescription]
    /// The name this entity had in an earlier model version, for migration.
    public var renamingIdentifier: String?
    /// A string mixed into the version hash to force a new version without a structural change.
    public var versionHashModifier: String?
    /// The expression naming each object of the entity in search results (Core Data's
    /// `coreSpotlightDisplayNameExpression`), in the format of a fetch expression, evaluated
    /// on the object; `nil` for none. It changes no version hash.
    public var searchDisplayNameExpression: String?
    /// Free-form key-value pairs for the application.
    public var userInfo: [String: String]

    /// Creates an entity.
    public init(
        name: String, isAbstract: Bool = false, superentityName: String? = nil,
        attributes: [AttributeDescription] = [], relationships: [RelationshipDescription] = [],
        fetchedProperties: [FetchedPropertyDescription] = [], uniquenessConstraints: [[String]] = [],
        fetchIndexes: [FetchIndexDescription] = [], className: String? = nil
    ) {
        self.name = name
        self.isAbstract = isAbstract
        self.superentityName = superentityName
        self.attributes = attributes
        self.relationships = relationships
        self.fetchedProperties = fetchedProperties
        self.uniquenessConstraints = uniquenessConstraints
        self.fetchIndexes = fetchIndexes
        self.className = className
        self.userInfo = [:]
    }

    /// The names of the entity's own properties (attributes, relationships, fetched properties).
    public var ownPropertyNames: [String] {
        attributes.map(\.name) + relationships.map(\.name) + fetchedProperties.map(\.name)
    }

    /// The own attribute named `name`, if any.
    public func attribute(named name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    /// The own relationship named `name`, if any.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }
}
