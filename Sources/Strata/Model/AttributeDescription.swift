import Foundation

/// Describes one attribute of an entity: its name, type, optionality and validation rules.
///
/// ```swift
/// var title = AttributeDescription(name: "title", type: .string)
/// title.isOptional = false
/// title.maxLength = 120
/// ```
public struct AttributeDescription: Sendable, Hashable {
    /// The attribute's name, unique among the entity's properties (inherited ones included).
    public var name: String
    /// The type of the attribute's values.
    public var type: AttributeType
    /// Whether the attribute may be `nil` when saved. Defaults to `true`, as in Core Data.
    public var isOptional: Bool
    /// Whether the attribute lives only in memory and is never stored.
    public var isTransient: Bool
    /// The value a newly inserted object starts with; ``AttributeValue/null`` for none.
    public var defaultValue: AttributeValue
    /// The smallest valid value, for numeric and date attributes.
    public var minValue: AttributeValue?
    /// The largest valid value, for numeric and date attributes.
    public var maxValue: AttributeValue?
    /// The smallest valid length (characters for strings, bytes for binary data).
    public var minLength: Int?
    /// The largest valid length (characters for strings, bytes for binary data).
    public var maxLength: Int?
    /// A regular expression every string value must match in full.
    public var regularExpression: String?
    /// Whether the value is kept in a tombstone when the object is deleted (persistent history).
    public var preservesValueInHistoryOnDeletion: Bool
    /// Whether a store may keep large binary values outside its main file.
    public var allowsExternalBinaryDataStorage: Bool
    /// Whether the attribute carries a single-property index (the older form of a fetch index).
    public var isIndexed: Bool
    /// Whether the attribute's values go into the full-text search index of its entity's
    /// objects (Core Data's `isIndexedBySpotlight`, Xcode's "Index in Spotlight"). It changes
    /// no version hash.
    public var isIndexedForSearch: Bool
    /// The name of the value transformer of a transformable attribute, looked up in a
    /// ``ValueTransformerRegistry``.
    public var valueTransformerName: String?
    /// An expression (such as `"pages.@count"`) that derives the value from other properties.
    public var derivationExpression: String?
    /// The name this attribute had in an earlier model version, for migration.
    public var renamingIdentifier: String?
    /// A string mixed into the version hash to force a new version without a structural change.
    public var versionHashModifier: String?
    /// Free-form key-value pairs for the application.
    public var userInfo: [String: String]
    /// The elements of a ``AttributeType/composite`` attribute, each a plain attribute or a
    /// composite nesting further; empty for every other type.
    ///
    /// A composite is stored as one attribute per leaf element, named by its path
    /// (`address.city`), which predicates, sorts and ``ManagedObject/value(forKey:)`` use.
    public var elements: [AttributeDescription]

    /// Creates an attribute; every option starts at Core Data's default.
    public init(name: String, type: AttributeType, isOptional: Bool = true, defaultValue: AttributeValue = .null) {
        self.name = name
        self.type = type
        self.isOptional = isOptional
        self.isTransient = false
        self.defaultValue = defaultValue
        self.preservesValueInHistoryOnDeletion = false
        self.allowsExternalBinaryDataStorage = false
        self.isIndexed = false
        self.isIndexedForSearch = false
        self.userInfo = [:]
        self.elements = []
    }

    /// A composite attribute grouping `elements` (Core Data's `NSCompositeAttributeDescription`).
    ///
    /// ```swift
    /// AttributeDescription.composite("address", elements: [
    ///     AttributeDescription("street", .string),
    ///     AttributeDescription("city", .string, optional: false),
    /// ])
    /// ```
    public static func composite(_ name: String, elements: [AttributeDescription]) -> AttributeDescription {
        var composite = AttributeDescription(name: name, type: .composite)
        composite.elements = elements
        return composite
    }

    /// The attributes that hold this attribute's values: itself, or for a composite each leaf
    /// element renamed to its path from this attribute (`address.city`). A leaf's renaming
    /// identifier is its path in the earlier version, when the composite or an element on the
    /// way has one (`home.city` for `address` renamed from `home`).
    public var leafAttributes: [AttributeDescription] {
        guard type == .composite else { return [self] }
        return elements.flatMap { element in
            element.leafAttributes.map { leaf in
                var leaf = leaf
                if renamingIdentifier != nil || leaf.renamingIdentifier != nil {
                    leaf.renamingIdentifier =
                        (renamingIdentifier ?? name) + "." + (leaf.renamingIdentifier ?? leaf.name)
                }
                leaf.name = name + "." + leaf.name
                return leaf
            }
        }
    }
}
