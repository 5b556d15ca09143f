/// An error in a model: an invalid description, or a model file that cannot be read.
///
/// Match on ``code``; ``message`` is a sentence for people. A validation failure lists
/// every problem found in ``issues``, each naming its entity and property.
public struct ModelError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; `switch` with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case invalidModel, malformedFile, unsupportedFormat, unreadableFile, incompatibleModels
        }
        private let kind: Kind

        /// The model failed validation; see ``ModelError/issues``.
        public static let invalidModel = Code(kind: .invalidModel)
        /// A model file is not well-formed or refers to something that does not exist.
        public static let malformedFile = Code(kind: .malformedFile)
        /// A model file is in a format Strata does not read.
        public static let unsupportedFormat = Code(kind: .unsupportedFormat)
        /// A model file or folder could not be read.
        public static let unreadableFile = Code(kind: .unreadableFile)
        /// Models could not be merged.
        public static let incompatibleModels = Code(kind: .incompatibleModels)

        public var description: String { "\(kind)" }
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, naming the file, entity or property.
    public var message: String
    /// Every problem found, for ``Code/invalidModel``.
    public var issues: [ModelIssue]
    /// The file involved, if any.
    public var filePath: String?
    /// The line in ``filePath``, if known.
    public var line: Int?
    /// The error that caused this one, if any.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(
        code: Code, message: String, issues: [ModelIssue] = [], filePath: String? = nil, line: Int? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.issues = issues
        self.filePath = filePath
        self.line = line
        self.underlying = underlying
    }

    public var description: String {
        issues.isEmpty ? message : ([message] + issues.map { "- \($0.message)" }).joined(separator: "\n")
    }
}

/// One problem found when validating a model.
public struct ModelIssue: Sendable, Hashable, CustomStringConvertible {
    /// What kind of problem it is. New kinds may be added; `switch` with a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }

        /// An entity or property has an empty name.
        public static let emptyName = Kind("emptyName")
        /// An entity or property name is not made of letters, digits and `_`, or starts with a
        /// digit.
        public static let invalidName = Kind("invalidName")
        /// Two entities share a name.
        public static let duplicateEntity = Kind("duplicateEntity")
        /// An entity declares two properties with one name.
        public static let duplicateProperty = Kind("duplicateProperty")
        /// A property has the name of an inherited one.
        public static let shadowedProperty = Kind("shadowedProperty")
        /// An entity inherits from an entity the model does not have.
        public static let unknownSuperentity = Kind("unknownSuperentity")
        /// An entity is its own ancestor.
        public static let inheritanceCycle = Kind("inheritanceCycle")
        /// A relationship or fetched property points at an unknown entity.
        public static let unknownDestination = Kind("unknownDestination")
        /// A relationship names an inverse its destination does not have.
        public static let unknownInverse = Kind("unknownInverse")
        /// A relationship's inverse does not point back at it.
        public static let inverseMismatch = Kind("inverseMismatch")
        /// A relationship's minimum and maximum counts do not fit together.
        public static let invalidCount = Kind("invalidCount")
        /// A to-one relationship is marked ordered.
        public static let orderedToOne = Kind("orderedToOne")
        /// A default value does not fit its attribute's type.
        public static let defaultValueType = Kind("defaultValueType")
        /// A value or length bound does not fit its attribute, or the bounds are out of order.
        public static let invalidBounds = Kind("invalidBounds")
        /// A regular expression does not compile, or is set on a non-string attribute.
        public static let invalidRegularExpression = Kind("invalidRegularExpression")
        /// A transformable attribute names no value transformer.
        public static let missingTransformer = Kind("missingTransformer")
        /// A uniqueness constraint names an unknown property.
        public static let unknownConstraintProperty = Kind("unknownConstraintProperty")
        /// A uniqueness constraint names a to-many relationship, a transient property or a
        /// fetched property: only stored attributes and to-one relationships can be unique.
        public static let invalidConstraintProperty = Kind("invalidConstraintProperty")
        /// A fetch index has no elements.
        public static let emptyIndex = Kind("emptyIndex")
        /// A fetch index names something that is not an attribute or to-one relationship.
        public static let unknownIndexProperty = Kind("unknownIndexProperty")
        /// A fetch index mixes binary and R-tree elements.
        public static let mixedIndexKinds = Kind("mixedIndexKinds")
        /// An R-tree element is not a non-optional numeric attribute.
        public static let invalidRTreeElement = Kind("invalidRTreeElement")
        /// An entity declares two fetch indexes with one name.
        public static let duplicateIndex = Kind("duplicateIndex")
        /// A configuration names an unknown entity.
        public static let unknownConfigurationEntity = Kind("unknownConfigurationEntity")
        /// A fetch request template fetches an unknown entity.
        public static let unknownTemplateEntity = Kind("unknownTemplateEntity")
        /// A template, fetched property or partial index has a predicate that does not parse.
        public static let invalidPredicate = Kind("invalidPredicate")
        /// A class's typed property cannot describe a model property: its Swift type stands for no
        /// attribute type, a key path in its declaration names no managed property, or its
        /// wrappers were not set up by their declarations.
        public static let invalidClassDeclaration = Kind("invalidClassDeclaration")
        /// A class disagrees with the model it is bound to: a typed property the entity lacks, or
        /// of another kind, type, optionality or destination, or a class hierarchy unlike the
        /// entities'.
        public static let classMismatch = Kind("classMismatch")
        /// A derived attribute's expression does not parse, or a key path in it starts with no
        /// property of the entity.
        public static let invalidDerivation = Kind("invalidDerivation")
        /// An entity's search display-name expression does not parse, or a key path in it starts
        /// with no property of the entity.
        public static let invalidSearchIndexing = Kind("invalidSearchIndexing")
        /// A composite attribute has an element with a bad or repeated name, an
        /// element Core Data does not allow in a composite (transient, derived, kept outside the
        /// store, or of type Undefined or ObjectID), or options only plain attributes have.
        public static let invalidComposite = Kind("invalidComposite")

        public var description: String { name }
    }

    /// What kind of problem it is.
    public var kind: Kind
    /// The entity involved, if any.
    public var entityName: String?
    /// The property, index, configuration or template involved, if any.
    public var propertyName: String?
    /// A sentence naming the entity and property and what is wrong.
    public var message: String

    /// Creates an issue.
    public init(_ kind: Kind, entity: String?, property: String? = nil, _ message: String) {
        self.kind = kind
        self.entityName = entity
        self.propertyName = property
        self.message = message
    }

    public var description: String { message }
}
