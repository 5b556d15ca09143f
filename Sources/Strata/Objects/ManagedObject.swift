import OrderedCollections

/// An instance of an entity: one object of the graph, living in exactly one context.
///
/// Read and write its properties by key (``value(forKey:)``, ``setValue(_:forKey:)``,
/// ``object(forKey:)``, ``objects(forKey:)``), or subclass it and declare typed properties
/// with ``Managed``, ``ToOne``, ``ToMany`` and ``OrderedToMany``:
///
/// ```swift
/// final class Book: ManagedObject {
///     @Managed var title: String
///     @Managed var pages: Int32?
///     @ToOne var author: Author?
/// }
/// let book = Book(context: context)
/// book.title = "Dune"
/// ```
///
/// An object is not `Sendable`: it is used on its context's queue only, inside
/// ``ManagedObjectContext/perform(_:)`` or ``ManagedObjectContext/performAndWait(_:)``; debug
/// builds stop with a message naming the context when it is touched elsewhere. Hand an
/// object to another context by its ``objectID``.
///
/// Two objects are equal only when they are the same instance, as uniquing guarantees one
/// object per ID per context.
open class ManagedObject: Hashable {
    /// What a context hands to ``init(creating:)``: the entity, the ID and the context.
    public struct Creation {
        let entity: EntitySchema
        let objectID: ObjectID
        /// `nil` only for a key-path probe's stand-in.
        let context: ManagedObjectContext?
        /// The probe a stand-in reports to (``KeyPathProbe``); `nil` for every real object.
        var probe: KeyPathProbe? = nil
    }

    /// The object's entity.
    public let entity: EntitySchema
    /// The object's ID, context, values and place in its context's pending lists, written by
    /// the transitions of ``ObjectState`` only; read through the accessors beside it.
    // Used on its context's queue only and never handed out `inout`, so no two accesses
    // overlap; the runtime's exclusivity check would cost more than the reads it guards.
    @exclusivity(unchecked) final var state: ObjectState
    /// The objects each fetched property fetched, kept until the object is refreshed.
    var fetchedPropertyResults: [String: [ManagedObject]] = [:]
    /// The probe this object stands in for when it is a key-path probe's stand-in
    /// (``KeyPathProbe``): its property wrappers then record their names and touch nothing.
    let keyPathProbe: KeyPathProbe?
    /// The object's Observation state, made when a typed property is first read.
    var observation: ObjectObservation?
    /// The results of the fetch that last returned the object, while they are in use.
    weak var cohort: FetchCohort?
    /// The object's position in ``cohort``.
    var cohortPosition = 0

    /// Creates an object for a context; contexts call this, applications use
    /// ``init(context:)`` or ``ManagedObjectContext/insertNewObject(forEntityName:)``. A
    /// subclass that adds an initializer must call this one.
    public required init(creating creation: Creation) {
        state = ObjectState(objectID: creation.objectID, context: creation.context)
        entity = creation.entity
        keyPathProbe = creation.probe
    }

    /// The name of the entity this class stands for; by default the class's name. Override it
    /// when they differ.
    open class var entityName: String { String(describing: self) }

    /// What the class declares about its entity in a model made from classes
    /// (``ManagedObjectModel/init(types:configurations:versionIdentifiers:)``): abstractness,
    /// uniqueness constraints, fetch indexes, an earlier name, a version hash modifier. By
    /// default none; a subclass that does not override it declares none either.
    open class var entityOptions: EntityOptions { EntityOptions() }

    /// Creates an object of this class's entity (``entityName``) and inserts it into `context`.
    ///
    /// - Precondition: the model has the entity, and this class is registered for it or not
    ///   yet registered for another.
    public convenience init(context: ManagedObjectContext) {
        self.init(creating: context.creationForInsert(of: Self.self))
        context.register(inserted: self)
    }

    /// Called once when the object is first inserted, after its default values are set; set
    /// initial values here. The default does nothing.
    open func awakeFromInsert() {}

    /// Called when the object's values are loaded from its store. The default does nothing.
    open func awakeFromFetch() {}

    /// Called before a save writes the object (inserted, changed or deleted). The default does
    /// nothing.
    open func willSave() {}

    /// Called after a save wrote the object. The default does nothing.
    open func didSave() {}

    /// Checks a value about to be saved for `key`; throw to refuse it, or replace it. The
    /// default accepts every value. Called by the default ``validateForInsert()`` and
    /// ``validateForUpdate()`` for every attribute, after the model's own rules pass.
    open func validateValue(_ value: inout AttributeValue, forKey key: String) throws {}

    /// Checks the whole object before it is first saved. The default applies the model's rules
    /// (optionality, ranges, lengths, patterns, relationship counts) and ``validateValue(_:forKey:)``;
    /// an override should call `super` and may throw a ``ValidationError`` or any error.
    open func validateForInsert() throws {
        try throwIfInvalid(modelValidationErrors())
    }

    /// Checks the whole object before a changed object is saved; as ``validateForInsert()``.
    open func validateForUpdate() throws {
        try throwIfInvalid(modelValidationErrors())
    }

    /// Checks that the object may be deleted. The default refuses when a relationship with the
    /// deny rule still has members.
    open func validateForDelete() throws {
        try throwIfInvalid(denyRuleErrors())
    }

    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }

    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

@available(*, unavailable)
extension ManagedObject: Sendable {}
