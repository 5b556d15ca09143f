/// One reason an object cannot be saved: a missing value, a value out of range, a relationship
/// with too few members, a delete a rule denies, or a failure an object's own validation gave.
///
/// A save collects every such error before it gives up; they arrive together in
/// ``ContextError/validationErrors``.
public struct ValidationError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; `switch` with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case missingValue, wrongType, tooSmall, tooLarge, tooShort, tooLong, patternMismatch, tooFewObjects,
                tooManyObjects, deleteDenied, custom
        }
        private let kind: Kind

        /// A non-optional property has no value.
        public static let missingValue = Code(kind: .missingValue)
        /// The value is not of the attribute's type.
        public static let wrongType = Code(kind: .wrongType)
        /// The value is below the attribute's minimum.
        public static let tooSmall = Code(kind: .tooSmall)
        /// The value is above the attribute's maximum.
        public static let tooLarge = Code(kind: .tooLarge)
        /// The text or data is shorter than the attribute's minimum length.
        public static let tooShort = Code(kind: .tooShort)
        /// The text or data is longer than the attribute's maximum length.
        public static let tooLong = Code(kind: .tooLong)
        /// The text does not match the attribute's regular expression.
        public static let patternMismatch = Code(kind: .patternMismatch)
        /// A to-many relationship has fewer members than its minimum.
        public static let tooFewObjects = Code(kind: .tooFewObjects)
        /// A to-many relationship has more members than its maximum.
        public static let tooManyObjects = Code(kind: .tooManyObjects)
        /// A deny delete rule refuses the deletion: the relationship still has members.
        public static let deleteDenied = Code(kind: .deleteDenied)
        /// An object's own validation failed (see ``ValidationError/underlying``).
        public static let custom = Code(kind: .custom)

        /// The code's name.
        public var description: String { "\(kind)" }
    }

    /// The kind of failure.
    public var code: Code
    /// The object that failed.
    public var objectID: ObjectID
    /// The property that failed; `nil` for the object as a whole.
    public var key: String?
    /// What went wrong, naming the entity, property and value.
    public var message: String
    /// The error an object's validation method threw, if any.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(
        code: Code, objectID: ObjectID, key: String? = nil, message: String, underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.objectID = objectID
        self.key = key
        self.message = message
        self.underlying = underlying
    }

    /// The ``message``.
    public var description: String { message }

    /// The error of a deny rule refusing to delete `objectID`: its `relationship` still holds
    /// `destination` and `remainingCount - 1` more objects the deletion would leave.
    static func deleteDenied(
        _ objectID: ObjectID, relationship: String, holding destination: ObjectID, remainingCount: Int
    ) -> ValidationError {
        ValidationError(
            code: .deleteDenied, objectID: objectID, key: relationship,
            message: "Cannot delete \(objectID): its relationship '\(objectID.entityName).\(relationship)' "
                + "denies deletion while it holds \(destination)"
                + (remainingCount > 1 ? " and \(remainingCount - 1) more." : "."))
    }
}
