/// What one typed property (``Managed``, ``ToOne``, ``ToMany``, ``OrderedToMany``) declares,
/// as its wrapper reports it to a ``DeclarationRecorder``.
struct PropertyDeclaration: Sendable {
    /// An attribute's declaration.
    struct Attribute: Sendable {
        /// The Swift type of the property, optionals included.
        var valueType: Any.Type
        /// The attribute type its Swift type stands for (``AttributeValueConvertible/attributeType``).
        var type: AttributeType
        /// Whether the Swift type is an `Optional`.
        var isOptional: Bool
        /// The property's initial value in its declaration, if it has one.
        var defaultValue: AttributeValue?
        var options: AttributeOptions
    }

    /// A relationship's declaration.
    struct Relationship: Sendable {
        var destination: ManagedObject.Type
        var isToMany: Bool
        var isOrdered: Bool
        /// The key path to the inverse on the destination, if the declaration names one.
        var inverse: (AnyKeyPath & Sendable)?
        var deleteRule: RelationshipDescription.DeleteRule
        var isOptional: Bool
        var minCount: Int
        var maxCount: Int
        var isTransient: Bool
        var originalName: String?
        var hashModifier: String?
    }

    enum Kind: Sendable {
        case attribute(Attribute)
        case relationship(Relationship)
    }

    /// The wrapper's type, which pairs the report with the property `Mirror` finds.
    var wrapper: Any.Type
    var kind: Kind

    /// Whether `other`, the same property's declaration made again, has the same initial value.
    func hasSameDefault(as other: PropertyDeclaration) -> Bool {
        guard case .attribute(let first) = kind, case .attribute(let second) = other.kind else { return true }
        return first.defaultValue == second.defaultValue
    }
}

/// An optional type, for looking through it.
protocol OptionalType {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalType {
    static var wrappedType: Any.Type { Wrapped.self }
}
