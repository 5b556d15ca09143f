import Foundation
import Strata

/// Keeps a ``SearchIndex`` of one store's objects current: what Core Data's Spotlight delegate
/// does, on every platform.
///
/// The exporter indexes the objects of the entities that have an attribute marked
/// `isIndexedForSearch` or a `searchDisplayNameExpression`. The first time, it indexes every
/// such object, in batches; from then on it reads the store's persistent history after the
/// last transaction it applied, so the store must track history. It keeps that position in the
/// index file, in the same transaction as the entries, so that after an exit or a kill it goes
/// on exactly where it stopped. A model whose indexed entities changed (or a new `version`)
/// makes it rebuild the index.
///
/// ```swift
/// var description = PersistentStoreDescription.sqlite(at: url)
/// description.tracksPersistentHistory = true
/// try coordinator.addStore(description)
/// let exporter = try SearchIndexExporter(forStoreWith: description, coordinator: coordinator)
/// exporter.startIndexing()
/// …
/// for hit in try exporter.search("india photo") {
///     let photo = try context.existingObject(with: coordinator.objectID(forURIRepresentation: hit.uri)!)
/// }
/// ```
///
/// It reads through the coordinator and the history only, never a store's files, so it works
/// for every store type that tracks history.
public final class SearchIndexExporter: Sendable {
    /// Given an object and the fields the model makes of it, the fields to index; `nil` leaves
    /// the object out of the index. It is called on the exporter's queue, with an object of the
    /// exporter's own context, whose relationships it may follow.
    public typealias FieldsHook = @Sendable (ManagedObject, SearchableFields) throws -> SearchableFields?

    /// What one step of the exporter did, as ``updates`` tells it.
    public enum Update: Sendable {
        /// A batch of entries reached the index: how many objects were indexed and removed,
        /// and whether the index holds everything the store had when the step began.
        case indexed(upserted: Int, removed: Int, isCurrent: Bool)
        /// A step failed; the exporter tries again on the store's next write.
        case failed(SearchError)
    }

    /// The index the exporter writes.
    public let index: SearchIndex
    /// The store whose objects are indexed.
    public let store: any IncrementalStore
    /// The coordinator the objects and the history are read through.
    public let coordinator: PersistentStoreCoordinator
    /// How many objects one step reads and indexes at most.
    public let batchSize: Int
    let version: Int
    let fields: FieldsHook?
    let broadcast = Broadcast<Update>()
    /// Held while the exporter runs, so that one step runs at a time.
    let running = Locked<Void>(())
    let background = Locked(BackgroundState())
    let queue = DispatchQueue(label: "strata.search-index-exporter")

    struct BackgroundState {
        var isIndexing = false
        var isScheduled = false
        var watchers: [Task<Void, Never>] = []
    }

    /// An exporter for the added store `store`, keeping its index at `indexURL` (by default
    /// beside the store's file, its name followed by `.search`).
    ///
    /// - Parameters:
    ///   - store: The store whose objects to index, added to `coordinator` with
    ///     `tracksPersistentHistory`.
    ///   - coordinator: The coordinator the objects and the history are read through.
    ///   - indexURL: The index file; by default beside the store's file.
    ///   - version: The version of what the exporter makes of objects; raise it when `fields`
    ///     changes, and the index is rebuilt.
    ///   - batchSize: How many objects one step reads and indexes at most.
    ///   - fields: Shapes each object's fields; by default the model's fields are indexed.
    /// - Throws: ``SearchError`` with code ``SearchError/Code/historyRequired`` when the store
    ///   does not track persistent history, ``SearchError/Code/invalidStore`` when it is not
    ///   added or has no file and no `indexURL` is given, or the index's error.
    public init(
        store: any IncrementalStore, coordinator: PersistentStoreCoordinator, indexURL: URL? = nil, version: Int = 1,
        batchSize: Int = 500, fields: FieldsHook? = nil
    ) throws {
        guard coordinator.store(withIdentifier: store.identifier) === store else {
            throw SearchError(
                code: .invalidStore,
                message: "\(store.nameInMessages) is not added to the coordinator; add it before indexing it.")
        }
        guard store.options.tracksPersistentHistory else {
            throw SearchError(
                code: .historyRequired,
                message: "\(store.nameInMessages) does not track persistent history, which the search index "
                    + "exporter reads to keep its index current; add it with tracksPersistentHistory set.")
        }
        guard
            let url = indexURL ?? store.url.flatMap({ $0.isFileURL ? URL(fileURLWithPath: $0.path + ".search") : nil })
        else {
            throw SearchError(
                code: .invalidStore,
                message: "\(store.nameInMessages) has no file beside which to keep its search index; give an indexURL.")
        }
        self.index = try SearchIndex(at: url)
        self.store = store
        self.coordinator = coordinator
        self.version = version
        self.batchSize = max(batchSize, 1)
        self.fields = fields
    }

    /// An exporter for the store `description` added to `coordinator`, as Core Data's
    /// `NSCoreDataCoreSpotlightDelegate(forStoreWith:coordinator:)`; the other parameters are
    /// those of ``init(store:coordinator:indexURL:version:batchSize:fields:)``.
    ///
    /// - Throws: ``SearchError`` with code ``SearchError/Code/invalidStore`` when no added
    ///   store matches the description, and the errors of the other initializer.
    public convenience init(
        forStoreWith description: PersistentStoreDescription, coordinator: PersistentStoreCoordinator,
        indexURL: URL? = nil, version: Int = 1, batchSize: Int = 500, fields: FieldsHook? = nil
    ) throws {
        let added =
            description.url.map { url in coordinator.store(at: url) }
            ?? coordinator.stores.first {
                $0.url == nil && $0.typeName == description.type && $0.configurationName == description.configuration
            }
        guard let store = added else {
            throw SearchError(
                code: .invalidStore,
                message: "No store added to the coordinator matches \(description); add it before indexing it.")
        }
        try self.init(
            store: store, coordinator: coordinator, indexURL: indexURL, version: version, batchSize: batchSize,
            fields: fields)
    }

    deinit {
        for watcher in background.withLock({ $0.watchers }) { watcher.cancel() }
    }

    /// What each step of the exporter does from now on. Each call makes a new sequence; it
    /// ends when its task is cancelled or the exporter goes away.
    public var updates: AsyncStream<Update> { broadcast.stream() }

    /// Brings the index up to date now, on the caller's thread: the first export where it is
    /// due, then every transaction of the store's history after the index's position.
    ///
    /// - Throws: ``SearchError``: ``SearchError/Code/export`` when reading the store or its
    ///   history fails or the fields hook throws, or the index's error. What was indexed
    ///   before the error stays, with its position.
    public func exportPendingChanges() throws {
        try running.withLock { _ in try export(while: { true }) }
    }

    /// Starts keeping the index current on the exporter's queue: now, after each save and
    /// batch request the coordinator makes to the store, and after each save of other
    /// coordinators and processes it announces (the coordinator's `remoteChanges`).
    public func startIndexing() {
        let identifier = store.identifier
        let writes = coordinator.storeWrites
        let remote = coordinator.remoteChanges
        let started = background.withLock { state -> Bool in
            guard !state.isIndexing else { return false }
            state.isIndexing = true
            state.watchers = [
                Task { [weak self] in
                    for await written in writes where written == identifier { self?.schedule() }
                },
                Task { [weak self] in
                    for await change in remote where change.storeIdentifier == identifier { self?.schedule() }
                },
            ]
            return true
        }
        if started { schedule() }
    }

    /// Stops keeping the index current; a step under way ends after its batch.
    public func stopIndexing() {
        let watchers = background.withLock { state in
            state.isIndexing = false
            defer { state.watchers = [] }
            return state.watchers
        }
        for watcher in watchers { watcher.cancel() }
    }

    /// Whether the exporter keeps the index current (``startIndexing()``).
    public var isIndexing: Bool { background.withLock { $0.isIndexing } }

    /// The objects `query` finds in the index, best first, at most `limit`
    /// (``SearchIndex/search(_:limit:)``).
    public func search(_ query: String, limit: Int = 20) throws -> [SearchIndex.Hit] {
        try index.search(query, limit: limit)
    }

    /// Empties the index and forgets its position, so that the next step exports everything
    /// again, as Core Data's `deleteSpotlightIndex`.
    public func deleteIndex() throws {
        try running.withLock { _ in try index.removeAll() }
    }

    /// Runs a step on the queue, unless one is waiting to start.
    private func schedule() {
        let due = background.withLock { state -> Bool in
            guard state.isIndexing, !state.isScheduled else { return false }
            state.isScheduled = true
            return true
        }
        guard due else { return }
        queue.async { [self] in
            background.withLock { $0.isScheduled = false }
            do {
                try running.withLock { _ in try export(while: { self.isIndexing }) }
            } catch {
                broadcast.yield(.failed(error as? SearchError ?? SearchError(code: .export, message: "\(error)")))
            }
        }
    }
}
