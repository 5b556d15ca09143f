/// An error from a store: a conflict, a bad or foreign file, an unsupported request.
///
/// Match on ``code``; ``message`` names the store, file, entity or object and, when known,
/// what to do.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; `switch` with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Kind: Hashable, Sendable {
            case conflict, unsupported, unknownEntity, unknownObject, invalidChange, corrupt, io, readOnly,
                incompatibleModel, unknownStoreType, unknownStore, unknownConfiguration, inUse, migrationFailed,
                invalidOption, generationUnavailable, constraintConflict, missingValueTransformer, savePending
        }
        private let kind: Kind

        /// A save met a newer version of an object, or a deleted one; nothing was written.
        public static let conflict = Code(kind: .conflict)
        /// A save would leave two objects with the same values of a uniqueness constraint's
        /// keys; see ``StoreError/constraintConflicts``. Nothing was written.
        public static let constraintConflict = Code(kind: .constraintConflict)
        /// The store does not do what was asked (see its ``StoreCapabilities``).
        public static let unsupported = Code(kind: .unsupported)
        /// The request names an entity the store does not hold.
        public static let unknownEntity = Code(kind: .unknownEntity)
        /// The request names an object or relationship the store does not have.
        public static let unknownObject = Code(kind: .unknownObject)
        /// A change names a property its entity does not have, or gives a value of the wrong type.
        public static let invalidChange = Code(kind: .invalidChange)
        /// The store's file is damaged or not a store of this type.
        public static let corrupt = Code(kind: .corrupt)
        /// Reading or writing the store's file failed.
        public static let io = Code(kind: .io)
        /// The store was opened read-only.
        public static let readOnly = Code(kind: .readOnly)
        /// The store was written with a model this one cannot open without migrating.
        public static let incompatibleModel = Code(kind: .incompatibleModel)
        /// No store type of that name is registered with the coordinator.
        public static let unknownStoreType = Code(kind: .unknownStoreType)
        /// The store is not (or no longer) added to the coordinator.
        public static let unknownStore = Code(kind: .unknownStore)
        /// The model has no configuration of that name.
        public static let unknownConfiguration = Code(kind: .unknownConfiguration)
        /// A store setting (``StoreOptions/settings``) has a value its type cannot use.
        public static let invalidOption = Code(kind: .invalidOption)
        /// The store, its file or its identifier is already in use.
        public static let inUse = Code(kind: .inUse)
        /// A query generation's read view of the store cannot be opened (the store's limit on
        /// views is reached) or can no longer read (the store was closed, or the view outlived
        /// the store's limit on its age); pin the context again to read on.
        public static let generationUnavailable = Code(kind: .generationUnavailable)
        /// Moving a store to another URL or type failed; the source is untouched and the partial
        /// destination removed.
        public static let migrationFailed = Code(kind: .migrationFailed)
        /// A transformable attribute of the store's configuration names a value transformer the
        /// coordinator's ``ValueTransformerRegistry`` lacks; the store was not added.
        public static let missingValueTransformer = Code(kind: .missingValueTransformer)

        /// A save across stores was logged, so it is decided, but a store could not write its
        /// share (docs/STRIPED-SAVES.md): the stores written hold the save, and the others were
        /// removed from the coordinator and get their share when they are added again.
        public static let savePending = Code(kind: .savePending)

        /// The code's name.
        public var description: String { "\(kind)" }
    }

    /// One object a conflicting save could not write.
    public struct Conflict: Sendable, Hashable {
        /// The object.
        public var objectID: ObjectID
        /// The version the saving context last saw.
        public var expectedVersion: Int64
        /// The version the store holds; `nil` when the store no longer has the object.
        public var storedVersion: Int64?

        /// Creates a conflict record.
        public init(objectID: ObjectID, expectedVersion: Int64, storedVersion: Int64?) {
            self.objectID = objectID
            self.expectedVersion = expectedVersion
            self.storedVersion = storedVersion
        }
    }

    /// The kind of failure.
    public var code: Code
    /// What went wrong, naming the store, file, entity or object.
    public var message: String
    /// The objects of a ``Code/conflict``.
    public var conflicts: [Conflict]
    /// The clashing values of a ``Code/constraintConflict``.
    public var constraintConflicts: [ConstraintConflict]
    /// The error that caused this one, if any.
    public var underlying: (any Error & Sendable)?

    /// Creates an error.
    public init(
        code: Code, message: String, conflicts: [Conflict] = [], constraintConflicts: [ConstraintConflict] = [],
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.conflicts = conflicts
        self.constraintConflicts = constraintConflicts
        self.underlying = underlying
    }

    /// The ``message``.
    public var description: String { message }
}
