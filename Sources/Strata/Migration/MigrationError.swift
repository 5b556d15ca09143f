/// An error from migrating a store to another model version: a mapping that cannot be
/// inferred or does not fit its models, a value that does not fit its new attribute, a store
/// that matches no known version.
///
/// Match on ``code``; ``message`` is a sentence naming the entity, property, mapping or
/// object. Whatever the error, the store being migrated is left as it was.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; `switch` with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case cannotInferMapping, invalidMapping, evaluationFailed, invalidValue, unknownPolicy,
                noMatchingVersion, noMapping, cancelled
        }
        private let kind: Kind

        /// A change between two model versions that no inferred mapping can carry, such as an
        /// attribute whose type changed to one its values cannot be converted to.
        public static let cannotInferMapping = Code(kind: .cannotInferMapping)
        /// A mapping model names an entity, property or entity mapping its models do not have,
        /// or does not fit the store's model version.
        public static let invalidMapping = Code(kind: .invalidMapping)
        /// A value expression or source filter could not be evaluated for an object.
        public static let evaluationFailed = Code(kind: .evaluationFailed)
        /// A migrated value does not fit its destination: a missing value for a non-optional
        /// property, a number out of range, several objects for a to-one relationship.
        public static let invalidValue = Code(kind: .invalidValue)
        /// An entity mapping names a migration policy that is not registered.
        public static let unknownPolicy = Code(kind: .unknownPolicy)
        /// The store's version hashes match no model version the migration knows.
        public static let noMatchingVersion = Code(kind: .noMatchingVersion)
        /// A step between two versions needs a mapping model, and none was given and inferring
        /// one was not allowed.
        public static let noMapping = Code(kind: .noMapping)
        /// The task running the migration was cancelled.
        public static let cancelled = Code(kind: .cancelled)

        /// The code's name.
        public var description: String { "\(kind)" }
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, naming the entity, property, mapping or object.
    public var message: String
    /// The entity involved, if any.
    public var entityName: String?
    /// The property involved, if any.
    public var propertyName: String?
    /// The error that caused this one, if any.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(
        code: Code, message: String, entityName: String? = nil, propertyName: String? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.entityName = entityName
        self.propertyName = propertyName
        self.underlying = underlying
    }

    public var description: String { message }
}
