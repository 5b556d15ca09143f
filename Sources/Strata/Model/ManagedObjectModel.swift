/// A model: the entities of an object graph, its configurations and fetch request templates.
///
/// A model is editable until its first use — when a store or coordinator takes it, or when
/// ``freeze()`` is called. Freezing validates it (every problem at once, in a
/// ``ModelError``) and resolves inheritance; from then on the model is immutable, `Sendable`
/// and shared freely. Changing a frozen model is a programmer error and stops the program
/// with a message naming what was changed.
///
/// ```swift
/// let model = ManagedObjectModel {
///     EntityDescription("Author") {
///         AttributeDescription("name", .string, optional: false)
///         RelationshipDescription.toMany("books", destination: "Book", inverse: "author", deleteRule: .cascade)
///     }
///     EntityDescription("Book") {
///         AttributeDescription("title", .string)
///         RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
///     }
/// }
/// try model.freeze()
/// ```
public final class ManagedObjectModel: Sendable {
    private struct State: Sendable {
        var entities: [EntityDescription]
        var configurations: [String: [String]]
        var fetchRequestTemplates: [FetchRequestTemplate]
        var versionIdentifiers: [String]
        var classes: [String: ManagedObject.Type] = [:]
        var schema: ModelSchema?
    }

    private let state: Locked<State>

    /// Creates a model from its parts.
    ///
    /// - Parameters:
    ///   - entities: the entities, each listing its own properties.
    ///   - configurations: named sets of entity names; a store added for a configuration
    ///     holds only its entities.
    ///   - fetchRequestTemplates: named fetch requests.
    ///   - versionIdentifiers: free-form version labels, written to store metadata.
    public init(
        entities: [EntityDescription] = [], configurations: [String: [String]] = [:],
        fetchRequestTemplates: [FetchRequestTemplate] = [], versionIdentifiers: [String] = []
    ) {
        state = Locked(
            State(
                entities: entities, configurations: configurations, fetchRequestTemplates: fetchRequestTemplates,
                versionIdentifiers: versionIdentifiers, schema: nil))
    }

    /// The model's entities. Setting it on a frozen model stops the program.
    public var entities: [EntityDescription] {
        get { state.withLock { $0.entities } }
        set { mutate("entities") { $0.entities = newValue } }
    }

    /// Named sets of entity names. Setting it on a frozen model stops the program.
    public var configurations: [String: [String]] {
        get { state.withLock { $0.configurations } }
        set { mutate("configurations") { $0.configurations = newValue } }
    }

    /// Named fetch requests. Setting it on a frozen model stops the program.
    public var fetchRequestTemplates: [FetchRequestTemplate] {
        get { state.withLock { $0.fetchRequestTemplates } }
        set { mutate("fetchRequestTemplates") { $0.fetchRequestTemplates = newValue } }
    }

    /// Free-form version labels (Core Data's `versionIdentifiers`). Setting it on a frozen model
    /// stops the program.
    public var versionIdentifiers: [String] {
        get { state.withLock { $0.versionIdentifiers } }
        set { mutate("versionIdentifiers") { $0.versionIdentifiers = newValue } }
    }

    /// The classes bound to entities, by entity name: those a model made from classes was made
    /// of, and those ``bind(_:)`` checked. A coordinator on the model makes objects of an entity
    /// as instances of its class.
    public var classes: [String: ManagedObject.Type] { state.withLock { $0.classes } }

    /// Records `classes` as the classes of their entities.
    func setClasses(_ classes: [String: ManagedObject.Type]) {
        mutate("classes") { $0.classes.merge(classes) { _, new in new } }
    }

    /// Every part of the model read under one lock, so that a concurrent edit cannot mix two
    /// states; `isFrozen` tells whether the parts can still change.
    func contents() -> (parts: Parts, versionIdentifiers: [String], isFrozen: Bool) {
        state.withLock { state in
            (
                Parts(
                    entities: state.entities, configurations: state.configurations,
                    fetchRequestTemplates: state.fetchRequestTemplates),
                state.versionIdentifiers, state.schema != nil
            )
        }
    }

    /// Whether the model has been used and can no longer change.
    public var isFrozen: Bool { state.withLock { $0.schema != nil } }

    /// The entity named `name`, as declared (own properties only).
    public func entity(named name: String) -> EntityDescription? {
        state.withLock { state in
            if let schema = state.schema { return schema.entitiesByName[name]?.description }
            return state.entities.first { $0.name == name }
        }
    }

    /// The fetch request template named `name`, if any.
    public func fetchRequestTemplate(named name: String) -> FetchRequestTemplate? {
        fetchRequestTemplates.first { $0.name == name }
    }

    /// Validates the model and makes it immutable. Calling it again does nothing.
    ///
    /// - Throws: ``ModelError`` with code ``ModelError/Code/invalidModel`` listing every
    ///   problem; the model stays editable.
    public func freeze() throws(ModelError) {
        try state.withLock { (state: inout State) throws(ModelError) in
            guard state.schema == nil else { return }
            let candidate = ManagedObjectModel.Parts(
                entities: state.entities, configurations: state.configurations,
                fetchRequestTemplates: state.fetchRequestTemplates)
            let issues = candidate.validationIssues()
            guard issues.isEmpty else {
                throw ModelError(
                    code: .invalidModel, message: "The model is not valid (\(issues.count) problem(s)).",
                    issues: issues)
            }
            state.schema = ModelSchema(entities: state.entities)
        }
    }

    /// The resolved form of a frozen model.
    ///
    /// - Precondition: the model is frozen.
    public var schema: ModelSchema {
        guard let schema = state.withLock({ $0.schema }) else {
            preconditionFailure("The model is not frozen yet: call freeze() before using its schema.")
        }
        return schema
    }

    private func mutate(_ what: String, _ body: (inout State) -> Void) {
        state.withLock { state in
            precondition(
                state.schema == nil,
                "Cannot change '\(what)' of a ManagedObjectModel that is in use (frozen); build a new model instead.")
            body(&state)
        }
    }

    /// The parts of a model that validation looks at.
    struct Parts {
        var entities: [EntityDescription]
        var configurations: [String: [String]]
        var fetchRequestTemplates: [FetchRequestTemplate]
    }
}
