/// An error from a context: a save that failed validation or met a newer version, a fault that
/// could not be fulfilled, a key an entity does not have.
///
/// Match on ``code``; ``message`` names the entity, object and property.
public struct ContextError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; `switch` with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case validation, mergeConflict, noStore, crossStoreRelationship, inaccessibleFault, objectNotFound,
                unknownEntity, unknownKey, wrongType, wrongContext, wrongClass, invalidQueryGeneration, abstractEntity,
                constraintConflict, invalidRequest, valueTransformation, readOnlyProperty
        }
        private let kind: Kind

        /// Objects failed validation; see ``ContextError/validationErrors``. Nothing was saved.
        public static let validation = Code(kind: .validation)
        /// A save met a newer version of an object in its store, or found it deleted; see
        /// ``ContextError/conflicts``. Nothing was saved to that store.
        public static let mergeConflict = Code(kind: .mergeConflict)
        /// No store added to the coordinator holds the entity, or the store an object was
        /// assigned to does not.
        public static let noStore = Code(kind: .noStore)
        /// A relationship joins objects that live in different stores.
        public static let crossStoreRelationship = Code(kind: .crossStoreRelationship)
        /// A fault's record no longer exists in its store.
        public static let inaccessibleFault = Code(kind: .inaccessibleFault)
        /// No store has an object with that ID.
        public static let objectNotFound = Code(kind: .objectNotFound)
        /// The model has no entity of that name.
        public static let unknownEntity = Code(kind: .unknownEntity)
        /// The entity has no property of that name (or not of that kind).
        public static let unknownKey = Code(kind: .unknownKey)
        /// A value is not of the property's type.
        public static let wrongType = Code(kind: .wrongType)
        /// An object belongs to another context.
        public static let wrongContext = Code(kind: .wrongContext)
        /// An object is not of the class a typed request asked for.
        public static let wrongClass = Code(kind: .wrongClass)
        /// A transformable attribute's value could not be turned into data or back: its
        /// transformer is not registered, or it refused the value or the stored data.
        public static let valueTransformation = Code(kind: .valueTransformation)
        /// The property cannot be set by the application: a derived attribute, which a save
        /// computes.
        public static let readOnlyProperty = Code(kind: .readOnlyProperty)

        /// A query generation token came from another coordinator, or a child context (which
        /// reads through its parent's generation) was asked to pin one.
        public static let invalidQueryGeneration = Code(kind: .invalidQueryGeneration)
        /// The entity is abstract: only its concrete sub-entities have objects.
        public static let abstractEntity = Code(kind: .abstractEntity)

        /// A save would leave two objects with the same values of a uniqueness constraint's
        /// keys, and the merge policy is ``MergePolicy/error`` (or no policy can merge them); see
        /// ``ContextError/constraintConflicts``. Nothing was saved to that store.
        public static let constraintConflict = Code(kind: .constraintConflict)

        /// A fetch request asks for something no fetch can answer, such as a property to fetch
        /// that is neither grouped by nor aggregated.
        public static let invalidRequest = Code(kind: .invalidRequest)

        /// The code's name.
        public var description: String { "\(kind)" }
    }

    /// One object whose save met another version in its store.
    public struct MergeConflict: Sendable, Hashable {
        /// The object.
        public var objectID: ObjectID
        /// The version the context last saw.
        public var cachedVersion: Int64
        /// The version the store holds; `nil` when the store no longer has the object.
        public var storedVersion: Int64?
        /// The properties the context changed.
        public var changedKeys: [String]

        /// Creates a conflict record.
        public init(objectID: ObjectID, cachedVersion: Int64, storedVersion: Int64?, changedKeys: [String]) {
            self.objectID = objectID
            self.cachedVersion = cachedVersion
            self.storedVersion = storedVersion
            self.changedKeys = changedKeys
        }
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, naming the entity, object and property.
    public var message: String
    /// Every validation failure of a ``Code/validation`` error.
    public var validationErrors: [ValidationError]
    /// Every conflicting object of a ``Code/mergeConflict`` error.
    public var conflicts: [MergeConflict]
    /// The clashing values of a ``Code/constraintConflict`` error.
    public var constraintConflicts: [ConstraintConflict]
    /// The error that caused this one, if any.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(
        code: Code, message: String, validationErrors: [ValidationError] = [], conflicts: [MergeConflict] = [],
        constraintConflicts: [ConstraintConflict] = [], underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.validationErrors = validationErrors
        self.conflicts = conflicts
        self.constraintConflicts = constraintConflicts
        self.underlying = underlying
    }

    /// The ``message``.
    public var description: String { message }
}
