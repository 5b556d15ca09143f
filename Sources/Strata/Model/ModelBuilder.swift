/// Builds a model in code so that it reads like the model it describes.
///
/// ```swift
/// let model = ManagedObjectModel(versionIdentifiers: ["2"]) {
///     EntityDescription("Vehicle", abstract: true) {
///         AttributeDescription("numberPlate", .string, optional: false)
///         UniquenessConstraint("numberPlate")
///     }
///     EntityDescription("Car", parent: "Vehicle") {
///         AttributeDescription("seats", .integer16, default: 4, min: 1, max: 9)
///         RelationshipDescription.toOne("owner", destination: "Person", inverse: "cars")
///     }
///     EntityDescription("Person") {
///         AttributeDescription("name", .string)
///         RelationshipDescription.toMany("cars", destination: "Car", inverse: "owner", deleteRule: .cascade)
///     }
///     ConfigurationDescription("Garage", entities: ["Vehicle", "Car", "Person"])
/// }
/// ```
@resultBuilder
public enum ModelBuilder {
    /// One part of a model.
    public enum Component: Sendable {
        /// An entity.
        case entity(EntityDescription)
        /// A configuration.
        case configuration(ConfigurationDescription)
        /// A fetch request template.
        case fetchRequestTemplate(FetchRequestTemplate)
    }

    /// Adds an entity.
    public static func buildExpression(_ entity: EntityDescription) -> [Component] { [.entity(entity)] }
    /// Adds a configuration.
    public static func buildExpression(_ configuration: ConfigurationDescription) -> [Component] {
        [.configuration(configuration)]
    }
    /// Adds a fetch request template.
    public static func buildExpression(_ template: FetchRequestTemplate) -> [Component] {
        [.fetchRequestTemplate(template)]
    }
    /// Joins the parts of a block in order.
    public static func buildBlock(_ parts: [Component]...) -> [Component] { parts.flatMap { $0 } }
    /// Supports `if` without `else`.
    public static func buildOptional(_ part: [Component]?) -> [Component] { part ?? [] }
    /// Supports `if`/`else` and `switch`.
    public static func buildEither(first part: [Component]) -> [Component] { part }
    /// Supports `if`/`else` and `switch`.
    public static func buildEither(second part: [Component]) -> [Component] { part }
    /// Supports `for` loops.
    public static func buildArray(_ parts: [[Component]]) -> [Component] { parts.flatMap { $0 } }
}

/// Builds the properties, constraints and indexes of an ``EntityDescription``.
@resultBuilder
public enum EntityBuilder {
    /// One part of an entity.
    public enum Component: Sendable {
        /// An attribute.
        case attribute(AttributeDescription)
        /// A relationship.
        case relationship(RelationshipDescription)
        /// A fetched property.
        case fetchedProperty(FetchedPropertyDescription)
        /// A uniqueness constraint over the named properties.
        case uniquenessConstraint([String])
        /// A fetch index.
        case fetchIndex(FetchIndexDescription)
    }

    /// Adds an attribute.
    public static func buildExpression(_ attribute: AttributeDescription) -> [Component] { [.attribute(attribute)] }
    /// Adds a relationship.
    public static func buildExpression(_ relationship: RelationshipDescription) -> [Component] {
        [.relationship(relationship)]
    }
    /// Adds a fetched property.
    public static func buildExpression(_ property: FetchedPropertyDescription) -> [Component] {
        [.fetchedProperty(property)]
    }
    /// Adds a uniqueness constraint.
    public static func buildExpression(_ constraint: UniquenessConstraint) -> [Component] {
        [.uniquenessConstraint(constraint.propertyNames)]
    }
    /// Adds a fetch index.
    public static func buildExpression(_ index: FetchIndexDescription) -> [Component] { [.fetchIndex(index)] }
    /// Joins the parts of a block in order.
    public static func buildBlock(_ parts: [Component]...) -> [Component] { parts.flatMap { $0 } }
    /// Supports `if` without `else`.
    public static func buildOptional(_ part: [Component]?) -> [Component] { part ?? [] }
    /// Supports `if`/`else` and `switch`.
    public static func buildEither(first part: [Component]) -> [Component] { part }
    /// Supports `if`/`else` and `switch`.
    public static func buildEither(second part: [Component]) -> [Component] { part }
    /// Supports `for` loops.
    public static func buildArray(_ parts: [[Component]]) -> [Component] { parts.flatMap { $0 } }
}

/// A named set of entities, for the model builder. A store added for a configuration holds
/// only its entities.
public struct ConfigurationDescription: Sendable, Hashable {
    /// The configuration's name.
    public var name: String
    /// The names of its entities.
    public var entityNames: [String]

    /// Creates a configuration.
    public init(_ name: String, entities: [String]) {
        self.name = name
        self.entityNames = entities
    }
}

/// A uniqueness constraint, for the model builder: the listed properties' values, taken
/// together, must be unique among the entity's objects.
public struct UniquenessConstraint: Sendable, Hashable {
    /// The constrained properties.
    public var propertyNames: [String]

    /// Creates a constraint over `propertyNames`.
    public init(_ propertyNames: String...) {
        self.propertyNames = propertyNames
    }
}

extension ManagedObjectModel {
    /// Creates a model from a builder block of entities, configurations and templates.
    public convenience init(versionIdentifiers: [String] = [], @ModelBuilder _ content: () -> [ModelBuilder.Component])
    {
        var entities: [EntityDescription] = []
        var configurations: [String: [String]] = [:]
        var templates: [FetchRequestTemplate] = []
        for component in content() {
            switch component {
            case .entity(let entity): entities.append(entity)
            case .configuration(let configuration):
                configurations[configuration.name, default: []] += configuration.entityNames
            case .fetchRequestTemplate(let template): templates.append(template)
            }
        }
        self.init(
            entities: entities, configurations: configurations, fetchRequestTemplates: templates,
            versionIdentifiers: versionIdentifiers)
    }
}

extension EntityDescription {
    /// Creates an entity from a builder block of properties, constraints and indexes.
    public init(
        _ name: String, parent: String? = nil, abstract: Bool = false, className: String? = nil,
        @EntityBuilder _ content: () -> [EntityBuilder.Component] = { [] }
    ) {
        self.init(name: name, isAbstract: abstract, superentityName: parent, className: className)
        for component in content() {
            switch component {
            case .attribute(let attribute): attributes.append(attribute)
            case .relationship(let relationship): relationships.append(relationship)
            case .fetchedProperty(let property): fetchedProperties.append(property)
            case .uniquenessConstraint(let names): uniquenessConstraints.append(names)
            case .fetchIndex(let index): fetchIndexes.append(index)
            }
        }
    }

    /// A copy whose objects are named in search results by `expression`, evaluated on each
    /// object (`"title"`, `"uppercase:(name)"`, `"author.name"`).
    public func displayedInSearch(as expression: String) -> EntityDescription {
        var copy = self
        copy.searchDisplayNameExpression = expression
        return copy
    }

    /// A copy that had the name `oldName` in an earlier model version.
    public func renamed(from oldName: String) -> EntityDescription {
        var copy = self
        copy.renamingIdentifier = oldName
        return copy
    }
}

extension AttributeDescription {
    /// Creates an attribute with the options most models set, for the model builder.
    ///
    /// `min` and `max` bound the value of numeric and date attributes and the length of
    /// string and binary ones.
    public init(
        _ name: String, _ type: AttributeType, optional: Bool = true, default defaultValue: AttributeValue = .null,
        min: AttributeValue? = nil, max: AttributeValue? = nil, transient: Bool = false
    ) {
        self.init(name: name, type: type, isOptional: optional, defaultValue: type.coerce(defaultValue) ?? defaultValue)
        isTransient = transient
        if type == .string || type == .binary {
            // A bound that is not a whole number stays a value bound, which validation reports.
            minLength = min.flatMap { Int(attributeValue: $0) }
            maxLength = max.flatMap { Int(attributeValue: $0) }
            minValue = minLength == nil ? min : nil
            maxValue = maxLength == nil ? max : nil
        } else {
            minValue = min.map { type.coerce($0) ?? $0 }
            maxValue = max.map { type.coerce($0) ?? $0 }
        }
    }

    /// A copy with a single-property index.
    public func indexed() -> AttributeDescription { with { $0.isIndexed = true } }
    /// A copy whose values go into the full-text search index.
    public func indexedForSearch() -> AttributeDescription { with { $0.isIndexedForSearch = true } }
    /// A copy that must match `pattern` in full.
    public func matching(_ pattern: String) -> AttributeDescription { with { $0.regularExpression = pattern } }
    /// A copy that keeps its value in the history tombstone when its object is deleted.
    public func preservedAfterDeletion() -> AttributeDescription {
        with { $0.preservesValueInHistoryOnDeletion = true }
    }
    /// A copy that may keep large values outside the store's main file.
    public func externallyStored() -> AttributeDescription { with { $0.allowsExternalBinaryDataStorage = true } }
    /// A copy transformed to and from data by the transformer registered as `transformerName`.
    public func transformed(by transformerName: String) -> AttributeDescription {
        with { $0.valueTransformerName = transformerName }
    }
    /// A copy derived from `expression`: a save computes its value, which the application only
    /// reads (`"pages.@count"`, `"sum:(pages.words)"`, `"now()"`, `"canonical:(title)"`,
    /// `"author.name"`).
    public func derived(from expression: String) -> AttributeDescription {
        with { $0.derivationExpression = expression }
    }
    /// A copy that had the name `oldName` in an earlier model version.
    public func renamed(from oldName: String) -> AttributeDescription { with { $0.renamingIdentifier = oldName } }
    /// A copy whose version hash also covers `modifier`.
    public func versionHashModifier(_ modifier: String) -> AttributeDescription {
        with { $0.versionHashModifier = modifier }
    }

    private func with(_ change: (inout AttributeDescription) -> Void) -> AttributeDescription {
        var copy = self
        change(&copy)
        return copy
    }
}

extension RelationshipDescription {
    /// A copy that had the name `oldName` in an earlier model version.
    public func renamed(from oldName: String) -> RelationshipDescription {
        var copy = self
        copy.renamingIdentifier = oldName
        return copy
    }

    /// A copy that lives only in memory.
    public func transient() -> RelationshipDescription {
        var copy = self
        copy.isTransient = true
        return copy
    }
}
