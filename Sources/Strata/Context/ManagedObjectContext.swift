import Dispatch
import Foundation
import OrderedCollections

/// The scratch pad applications work in: it fetches objects from the coordinator's stores,
/// tracks every insert, change and deletion, and saves them together.
///
/// A context is a serial unit of work. Use it, and its objects, only inside ``perform(_:)``
/// (async) or ``performAndWait(_:)``; both run the block on the context's own queue. Debug
/// builds stop with a message naming the context when it is used elsewhere.
///
/// ```swift
/// let context = ManagedObjectContext(coordinator: coordinator)
/// let count = try await context.perform {
///     let book = Book(context: context)
///     book.title = "Dune"
///     try context.save()
///     return try context.count(for: FetchRequest<Book>())
/// }
/// ```
public final class ManagedObjectContext: @unchecked Sendable {
    // Sendable by discipline: every mutable property below is read and written only on
    // `queue` (inside perform/performAndWait), which `assertOnQueue()` checks in debug builds.

    /// Which queue a context runs its work on.
    public enum ConcurrencyType: Sendable {
        /// A private serial queue of its own.
        case privateQueue
        /// The main queue, for a context that drives a user interface.
        case mainQueue
    }

    /// The coordinator the context fetches from and saves to; a child context's is its root's.
    public let coordinator: PersistentStoreCoordinator
    /// A name for the context, used in messages and notifications.
    public let name: String?
    /// Which queue the context runs on.
    public let concurrencyType: ConcurrencyType
    /// Whether firing a fault whose record another context deleted marks the object deleted
    /// with no values (`true`, the default, as in Core Data) instead of throwing
    /// ``ContextError/Code/inaccessibleFault``.
    public var shouldDeleteInaccessibleFaults = true
    /// How a save settles a conflict with a newer version in a store (``MergePolicy/error`` by
    /// default: the save fails). Set it on the context's queue.
    public var mergePolicy = MergePolicy.error
    /// How old, in seconds, a snapshot in the coordinator's shared cache may be for this context
    /// to use it instead of reading the store when an object's values load: negative (the
    /// default) accepts any age, 0 always reads the store. Fetches always read the store.
    /// Set it on the context's queue.
    public var stalenessInterval: TimeInterval = -1
    /// The author its saves record in the persistent history of the stores that track it
    /// (``PersistentHistoryTransaction/author``); `nil` by default. Set it on the context's queue.
    public var transactionAuthor: String?
    /// Whether the context merges the saves of the other contexts on its coordinator (for a
    /// child context: of its parent, and of its siblings into the parent) as they happen
    /// (`false` by default, as in Core Data): each save is applied on this context's
    /// queue as ``mergeChanges(fromContextDidSave:)`` applies it, and refreshed objects are
    /// announced with objects-did-change. Set it on the context's queue.
    public var automaticallyMergesChangesFromParent = false {
        didSet { subscribeToSaves(automaticallyMergesChangesFromParent) }
    }
    /// What records the context's changes so that they can be undone; `nil` (the default for a
    /// context created directly) records nothing. Each context needs a manager of its own. Set
    /// it on the context's queue.
    public var undoManager: ContextUndoManager? {
        didSet {
            if oldValue !== undoManager { oldValue?.context = nil }
            undoManager?.context = self
        }
    }

    let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<Void>()

    /// The context's objects and what is pending for them; the only place they change.
    let graph = ObjectGraph()
    /// Every object of the context, one per ID.
    var registered: [ObjectID: ManagedObject] { graph.registered }
    /// New objects, in insertion order.
    var pendingInserts: PendingObjectsView { graph.pendingInserts }
    /// Saved objects marked for deletion, in order.
    var pendingDeletions: PendingObjectsView { graph.pendingDeletions }
    /// Saved objects with changes, in the order they were first changed.
    var pendingChanges: PendingObjectsView { graph.pendingChanges }
    /// Snapshots fetched ahead of the objects that will use them.
    var snapshotCache: [ObjectID: Snapshot] { graph.snapshots }
    /// The entity and class of the objects of each ID namespace met, valid while the
    /// coordinator's count of class registrations is `classLookupsRegistrations`.
    var classLookups: [ObjectID.Namespace: (entity: EntitySchema, type: ManagedObject.Type)] = [:]
    var classLookupsRegistrations = -1
    /// Changes since the last objects-did-change notification.
    let unprocessedChanges = UnprocessedChanges()
    /// Depth of nested perform blocks on the queue.
    var blockDepth = 0
    /// Saved objects deleted before their values or to-many members were loaded, whose delete
    /// rules are applied together, in as few store reads as possible, before anything can
    /// observe them (``applyAwaitingDeleteRules()``).
    var deletesAwaitingRules = DeletesAwaitingRules()
    /// Whether ``applyAwaitingDeleteRules()`` is running.
    var isApplyingAwaitingDeleteRules = false
    /// The property name and Observation announcer of each typed property wrapper's storage,
    /// found on first use.
    var propertyIdentities: [AnyKeyPath: PropertyIdentity] = [:]
    /// Observers and streams for notifications.
    var observers = NotificationObservers()
    /// The parent context as this context's only store, when it is a child context.
    let parentStore: ParentContextStore?
    /// The child contexts, held weakly.
    let children = ChildContexts()
    /// The versions of objects handed to child contexts, to find conflicts when they save.
    var childVersions = ChildVersions()
    /// The query generation the context reads.
    var generationPin = GenerationPin.unpinned {
        didSet {
            var generation: QueryGeneration?
            if case .pinned(let pinned) = generationPin { generation = pinned }
            router = coordinator.router(parentStore: parentStore, generation: generation, contextName: name)
        }
    }
    /// The coordinator's router, for the stores this context sees: its parent, for a child
    /// context; those added when its query generation was taken, for a pinned one.
    private(set) var router: StoreRouter

    /// Creates a context on `coordinator`.
    public convenience init(
        coordinator: PersistentStoreCoordinator, concurrencyType: ConcurrencyType = .privateQueue, name: String? = nil
    ) {
        self.init(coordinator: coordinator, parent: nil, concurrencyType: concurrencyType, name: name)
    }

    /// Creates a context on `coordinator`, a child of `parent` when one is given.
    init(
        coordinator: PersistentStoreCoordinator, parent: ManagedObjectContext?, concurrencyType: ConcurrencyType,
        name: String?
    ) {
        self.coordinator = coordinator
        parentStore = parent.map(ParentContextStore.init(parent:))
        router = coordinator.router(parentStore: parentStore, generation: nil, contextName: name)
        self.name = name
        self.concurrencyType = concurrencyType
        switch concurrencyType {
        case .privateQueue: queue = DispatchQueue(label: "strata.context" + (name.map { "." + $0 } ?? ""))
        case .mainQueue: queue = DispatchQueue.main
        }
        queue.setSpecific(key: queueKey, value: ())
    }

    deinit {
        deletesAwaitingRules.removeAll()
        observers.streams.finish()
        // Objects holding one another in fetched properties would otherwise keep one another
        // alive; nothing else can use them once their context is gone.
        for object in registered.values { object.fetchedPropertyResults = [:] }
    }

    /// Runs `body` on the context's queue and returns its result; the context's pending
    /// changes are processed (and objects-did-change posted) when the block ends. What the
    /// calling task carries for the coordinator's observer (a trace's context) is in effect
    /// while `body` runs.
    public func perform<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let carried = CarriedContext(observer: coordinator.activeObserver)
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            queue.async {
                continuation.resume(returning: carried.restored { self.runBlock(body) })
            }
        }
        return try result.get()
    }

    /// Runs `body` on the context's queue, waiting for it; runs it at once when already on
    /// the queue. Pending changes are processed when the outermost block ends. The main
    /// queue's context carries the calling task's context for the observer to the main thread,
    /// as ``perform(_:)`` does; a private queue's runs `body` on the calling thread.
    public func performAndWait<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        if isOnQueue { return try runBlock(body).get() }
        let carried = concurrencyType == .mainQueue ? CarriedContext(observer: coordinator.activeObserver) : nil
        var result: Result<T, E>?
        queue.sync { result = carried.map { carried in carried.restored { runBlock(body) } } ?? runBlock(body) }
        guard let result else { preconditionFailure("performAndWait's block did not run.") }
        return try result.get()
    }

    private func runBlock<T, E: Error>(_ body: () throws(E) -> T) -> Result<T, E> {
        blockDepth += 1
        defer {
            blockDepth -= 1
            if blockDepth == 0 {
                processPendingChanges()
                undoManager?.closeEventGroup()
            }
        }
        do throws(E) {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }

    var isOnQueue: Bool { DispatchQueue.getSpecific(key: queueKey) != nil }

    /// Stops a debug build when the context is used off its queue; then applies the delete
    /// rules still awaiting (``applyAwaitingDeleteRules()``), so that whatever the caller reads
    /// sees them applied.
    func assertOnQueue(_ function: StaticString = #function) {
        assertOnQueueKeepingDeletes(function)
        applyAwaitingDeleteRulesIfPossible()
    }

    /// Stops a debug build when the context is used off its queue, leaving the delete rules that
    /// await as they are: for deleting objects and naming them, which observe nothing.
    func assertOnQueueKeepingDeletes(_ function: StaticString = #function) {
        assert(
            isOnQueue,
            "ManagedObjectContext\(name.map { " '\($0)'" } ?? "") was used in \(function) outside its queue; "
                + "wrap the work in perform or performAndWait.")
    }

    /// The model's resolved form.
    var schema: ModelSchema { coordinator.schema }

    /// The entity called `name`.
    func entitySchema(named name: String) throws(ContextError) -> EntitySchema {
        guard let entity = schema.entitiesByName[name] else {
            throw ContextError(code: .unknownEntity, message: "The model has no entity '\(name)'.")
        }
        return entity
    }
}
