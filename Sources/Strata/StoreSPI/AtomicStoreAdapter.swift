import Foundation

extension AtomicStore {
    /// This whole-file store as an ``IncrementalStore``: every object is kept in memory,
    /// predicates and sorting run on the core's evaluator, and each save writes the whole file.
    ///
    /// - Parameters:
    ///   - model: The model; it is frozen if it is not yet.
    ///   - configuration: The configuration whose entities the store holds; `nil` for all.
    ///   - options: How the store is opened.
    /// - Throws: ``ModelError`` when the model is invalid; ``StoreError`` with code
    ///   ``StoreError/Code/incompatibleModel`` when the file was written with a model that
    ///   needs migrating, or whatever ``load()`` throws.
    public func incrementalStore(
        model: ManagedObjectModel, configuration: String? = nil, options: StoreOptions = StoreOptions()
    ) throws -> any IncrementalStore {
        try incrementalStore(for: StoreOpenRequest(model: model, configurationName: configuration, options: options))
    }

    /// This whole-file store as an ``IncrementalStore``, opened as `request` asks (see
    /// ``incrementalStore(model:configuration:options:)``); the request's URL is not used, the
    /// store's own ``url`` is.
    public func incrementalStore(for request: StoreOpenRequest) throws -> any IncrementalStore {
        try AtomicStoreAdapter(store: self, request: request)
    }
}

extension IncrementalStore {
    /// Whether the store answers ``snapshot(for:)`` from memory, as cheaply as the
    /// coordinator's row cache would: then the row cache keeps none of its snapshots.
    var keepsSnapshotsInMemory: Bool { self is AtomicStoreAdapter }
}

/// Keeps the nodes of an ``AtomicStore`` in memory and answers the incremental SPI from them.
/// Its state sits under a lock; a save writes the file while holding it, so saves are
/// serialised and readers never see a half-applied change.
///
/// A writable store with a file locks it (``AtomicStoreWriterLock``) before reading it, so that
/// a second writable opening, in this process or another, is refused with
/// ``StoreError/Code/inUse`` instead of overwriting the first one's saves. Read-only openings
/// take no lock.
final class AtomicStoreAdapter: IncrementalStore {
    private struct State: Sendable {
        /// The metadata, without the history's key.
        var metadata: StoreMetadata
        var nodes: AtomicNodeTable
        var nextReference: Int64
        var history: AtomicStoreHistory

        /// What the file holds.
        var contents: AtomicStoreContents {
            AtomicStoreContents(
                metadata: history.adding(to: metadata), nodes: nodes.allNodes, nextReference: nextReference)
        }
    }

    let typeName: String
    let identifier: String
    let url: URL?
    let configurationName: String?
    let options: StoreOptions
    let capabilities: StoreCapabilities
    let predicateFeatures = PredicateFeatures.all
    private let store: any AtomicStore
    private let schema: ModelSchema
    private let entityNames: Set<String>
    private let state: Locked<State>
    private let writerLock: AtomicStoreWriterLock?
    /// Whether the store writes nothing (the in-memory store): then its state lives only as
    /// long as the process.
    let writesNothing: Bool

    /// Opens `store` as `request` asks; `writesNothing` for the in-memory store, whose
    /// ``AtomicStore/write(_:)`` does nothing, so that it takes its part of a save across
    /// stores without a save log.
    init(store: any AtomicStore, request: StoreOpenRequest, writesNothing: Bool = false) throws {
        let (model, configuration) = (request.model, request.configurationName)
        try model.freeze()
        writerLock = try store.url.flatMap { url in
            guard store.locksFile, !request.options.isReadOnly else { return nil }
            return try AtomicStoreWriterLock(url: url, storeName: store.typeName)
        }
        writerLock?.recordFile()
        var contents: AtomicStoreContents
        if let loaded = try store.load(slotsOf: model.schema) {
            try model.checkCompatible(
                configuration: configuration, metadata: loaded.metadata,
                place: store.url.map { "'\($0.path)'" } ?? "The \(store.typeName) store")
            contents = loaded
        } else if request.options.isReadOnly, let url = store.url {
            throw StoreError(
                code: .io, message: "There is no \(store.typeName) store at '\(url.path)' to open read-only.")
        } else {
            contents = AtomicStoreContents(
                metadata: StoreMetadata(
                    storeType: store.typeName, storeIdentifier: request.identifierForNewStore,
                    model: model, configuration: configuration, userInfo: request.userInfoForNewStore))
        }
        let history = try AtomicStoreHistory.take(
            from: &contents.metadata, source: store.url.map { "'\($0.path)'" } ?? "the \(store.typeName) store")
        self.store = store
        self.writesNothing = writesNothing
        self.typeName = store.typeName
        self.url = store.url
        self.capabilities = store.capabilities.union(.persistentHistory)
        self.identifier = contents.metadata.storeIdentifier
        self.configurationName = configuration
        self.options = request.options
        self.schema = model.schema
        self.entityNames = Set(model.entityNames(inConfiguration: configuration))
        self.state = Locked(
            State(
                metadata: contents.metadata, nodes: AtomicNodeTable(contents.nodes),
                nextReference: contents.nextReference, history: history))
    }

    var metadata: StoreMetadata { state.withLock { $0.metadata } }

    func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        let entity = try entitySchema(named: request.entityName)
        let kinds = entity.names(includingSubentities: request.includesSubentities)
        let nodes = state.withLock { $0.nodes }
        if request.predicate == nil, request.resultType == .count {
            return .count(request.pageCount(ofTotal: nodes.count(ofEntities: kinds)))
        }
        guard request.predicate != nil || !request.sortDescriptors.isEmpty else {
            let page = nodes.snapshots(ofEntities: kinds).dropFirst(max(request.fetchOffset, 0))
                .prefix(request.pageSize)
            return request.resultType == .objectIDs ? .objectIDs(page.map(\.objectID)) : .snapshots(Array(page))
        }
        let candidates = nodes.nodes(ofEntities: kinds).map { NodeResolver(node: $0, nodes: nodes, schema: schema) }
        return try request.result(of: candidates, matching: request.predicate, snapshot: \.node.snapshot)
    }

    func snapshot(for objectID: ObjectID) throws -> Snapshot? {
        state.withLock { $0.nodes.snapshot(of: objectID) }
    }

    func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        _ = try entitySchema(named: objectID.entityName).toManyRelationship(
            named: relationship, storeName: nameInMessages)
        guard let node = state.withLock({ $0.nodes[objectID] }) else {
            throw StoreError(code: .unknownObject, message: "\(nameInMessages) has no object \(objectID).")
        }
        return node.toManyRelationships[relationship] ?? []
    }

    func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID] {
        for name in entityNames { _ = try entitySchema(named: name) }
        let namespaces = ObjectID.Namespace.namespaces(storeIdentifier: identifier, entityNames: entityNames)
        return try state.withLock { state in
            try namespaces.map { namespace in
                let reference = state.nextReference
                state.nextReference = try StoredCounter.next(
                    after: reference, "The next object number of \(nameInMessages)")
                return ObjectID(namespace, reference: .integer(reference))
            }
        }
    }

    /// Checks `changes` and computes the state they make under the state's lock, calls
    /// `decision`, then writes the file and takes the state: the commit. Readers wait for the
    /// decision.
    func save(_ changes: StoreChangeSet, committingAfter decision: () throws -> Void) throws {
        guard !options.isReadOnly else {
            throw StoreError(code: .readOnly, message: "\(nameInMessages) was opened read-only.")
        }
        try state.withLock { (state: inout State) throws in
            let next = try self.state(after: changes, from: state)
            try decision()
            try write(next)
            state = next
        }
    }

    /// `state` with `changes` applied, once checked against the objects it holds.
    private func state(after changes: StoreChangeSet, from state: State) throws -> State {
        let stored = state.nodes
        try changes.checkVersions { stored[$0]?.snapshot.version }
        var scan = UniqueValuesScan { stored.snapshots(ofEntities: $0.entityNames) }
        try changes.checkUniqueness(schema: schema, storeName: nameInMessages) { try scan.matches($0, $1) }
        var next = state
        let updated = try changes.updated.compactMap { change -> StoreNode? in
            guard var node = stored[change.objectID] else { return nil }
            node.snapshot.values = change.values
            node.snapshot.version = try StoredCounter.next(
                after: node.snapshot.version, "The version of \(change.objectID) in \(nameInMessages)")
            node.toManyRelationships.merge(change.toManyRelationships) { _, new in new }
            return node
        }
        next.nodes.apply(
            inserted: changes.inserted.map { change in
                StoreNode(
                    snapshot: Snapshot(objectID: change.objectID, values: change.values, version: 1),
                    toManyRelationships: change.toManyRelationships)
            },
            updated: updated, deleted: changes.deleted.map(\.objectID))
        // An insert a coordinator completes from its save log carries an ID an earlier
        // opening handed out: it is never handed out again.
        for change in changes.inserted {
            if case .integer(let reference) = change.objectID.reference, reference >= next.nextReference {
                next.nextReference = try StoredCounter.next(
                    after: reference, "The object number of \(change.objectID) in \(nameInMessages)")
            }
        }
        if let userInfo = changes.userInfo {
            try AtomicStoreHistory.checkUnreserved(userInfo, storeName: nameInMessages)
            next.metadata.userInfo = userInfo
        }
        if options.tracksPersistentHistory, changes.changesObjects {
            try next.history.record(changes, storeIdentifier: identifier, schema: schema, stored: state.nodes)
        }
        return next
    }

    /// Writes the file `state` stands for; called with the state's lock held.
    private func write(_ state: State) throws {
        try writerLock?.ensureHeld()
        defer { writerLock?.recordFile() }
        try store.write(state.contents)
    }

    func historyTransactions(after bound: StoreHistoryBound, includingChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    {
        state.withLock { $0.history.transactions(after: bound, includingChanges: includingChanges) }
    }

    func deleteHistory(before bound: StoreHistoryBound) throws -> Int {
        guard !options.isReadOnly else {
            throw StoreError(code: .readOnly, message: "\(nameInMessages) was opened read-only.")
        }
        return try state.withLock { (state: inout State) throws in
            var next = state
            let deleted = next.history.delete(before: bound)
            guard deleted > 0 else { return 0 }
            try write(next)
            state = next
            return deleted
        }
    }

    func replaceHistory(with transactions: [PersistentHistoryTransaction]) throws {
        guard !options.isReadOnly else {
            throw StoreError(code: .readOnly, message: "\(nameInMessages) was opened read-only.")
        }
        try transactions.checkReplacementOrder(storeName: nameInMessages)
        try state.withLock { (state: inout State) throws in
            var next = state
            try next.history.replace(with: transactions, storeIdentifier: identifier)
            try write(next)
            state = next
        }
    }

    func lastHistoryToken() throws -> PersistentHistoryToken? {
        state.withLock { $0.history.lastToken(storeIdentifier: identifier) }
    }

    func willAttach() throws { try writerLock?.attach() }

    func close() { writerLock?.detach() }

    private func entitySchema(named name: String) throws -> EntitySchema {
        guard let entity = schema.entitiesByName[name], entityNames.contains(name) else {
            let scope = configurationName.map { "configuration '\($0)' of " } ?? ""
            throw StoreError(
                code: .unknownEntity, message: "Entity '\(name)' is not in \(scope)the \(typeName) store's model.")
        }
        return entity
    }

}

extension AtomicStoreAdapter: InMemoryOnlyStore {
    var keepsStateInMemoryOnly: Bool { writesNothing }
}

extension AtomicStoreAdapter: FetchExplaining {
    /// The store holds its objects in memory: the core evaluates the whole predicate, then sorts
    /// and pages, on every object of the entity.
    func explain(_ request: StoreFetchRequest) throws -> StoreFetchExplanation {
        let entity = try entitySchema(named: request.entityName)
        let kinds = entity.names(includingSubentities: request.includesSubentities)
        let isPlain = request.predicate == nil && request.sortDescriptors.isEmpty
        let verb = isPlain && request.resultType == .count ? "count" : "read"
        return StoreFetchExplanation(
            steps: [
                "\(nameInMessages) holds its objects in memory: \(verb) its \(kinds.joined(separator: ", ")) objects."
            ],
            evaluatedInMemory: request.predicate?.conjuncts ?? [], sortsInMemory: !isPlain)
    }
}
