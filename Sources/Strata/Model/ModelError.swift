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
    /// What kind of problem it is.
    public enum Kind: String, Sendable, Hashable {
        case emptyName, invalidName, duplicateEntity, duplicateProperty, shadowedProperty
        case unknownSuperentity, inheritanceCycle, unknownDestination, unknownInverse, inverseMismatch
        case invalidCount, orderedToOne, defaultValueType, invalidBounds, invalidRegularExpression
        case missingTransformer, unknownConstraintProperty, emptyIndex, unknownIndexProperty, mixedIndexKinds
        case invalidRTreeElement, duplicateIndex, unknownConfigurationEntity, unknownTemplateEntity
        case invalidPredicate
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
