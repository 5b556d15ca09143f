import Foundation
import Synchronization

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

/// Keeps the nodes of an ``AtomicStore`` in memory and answers the incremental SPI from them.
/// Its state sits in a `Mutex`; a save writes the file while holding it, so saves are
/// serialised and readers never see a half-applied change.
final class AtomicStoreAdapter: IncrementalStore {
    private struct State: Sendable {
        var metadata: StoreMetadata
        var nodes: [ObjectID: StoreNode]
        var nextReference: Int64
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
    private let state: Mutex<State>

    init(store: any AtomicStore, request: StoreOpenRequest) throws {
        let (model, configuration) = (request.model, request.configurationName)
        try model.freeze()
        let contents: AtomicStoreContents
        if let loaded = try store.load() {
            let problems = model.compatibilityProblems(configuration: configuration, metadata: loaded.metadata)
            guard problems.isEmpty else {
                let place = store.url.map { "'\($0.path)'" } ?? "The \(store.typeName) store"
                throw StoreError(
                    code: .incompatibleModel,
                    message: "\(place) was written with another model; migrate it first. "
                        + problems.joined(separator: " "))
            }
            contents = loaded
        } else {
            contents = AtomicStoreContents(
                metadata: StoreMetadata(
                    storeType: store.typeName, storeIdentifier: request.identifierForNewStore ?? UUID().uuidString,
                    model: model, configuration: configuration, userInfo: request.userInfoForNewStore))
        }
        self.store = store
        self.typeName = store.typeName
        self.url = store.url
        self.capabilities = store.capabilities
        self.identifier = contents.metadata.storeIdentifier
        self.configurationName = configuration
        self.options = request.options
        self.schema = model.schema
        self.entityNames = Set(model.entityNames(inConfiguration: configuration))
        let nodes = Dictionary(contents.nodes.map { ($0.snapshot.objectID, $0) }, uniquingKeysWith: { _, last in last })
        self.state = Mutex(State(metadata: contents.metadata, nodes: nodes, nextReference: contents.nextReference))
    }

    var metadata: StoreMetadata { state.withLock { $0.metadata } }

    func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        let entity = try entitySchema(named: request.entityName)
        let kinds = Set(request.includesSubentities ? [entity.name] + entity.descendantNames : [entity.name])
        let nodes = state.withLock { $0.nodes }
        var matching = nodes.values.filter { kinds.contains($0.snapshot.objectID.entityName) }
            .sorted { Self.storageOrder($0.snapshot.objectID, $1.snapshot.objectID) }
            .map { NodeResolver(node: $0, nodes: nodes, schema: schema) }
        if let predicate = request.predicate { matching = try predicate.filter(matching) }
        if !request.sortDescriptors.isEmpty {
            matching = try FetchSortDescriptor.sorted(matching, by: request.sortDescriptors)
        }
        let page = matching.dropFirst(max(request.fetchOffset, 0)).prefix(request.pageSize)
        switch request.resultType {
        case .count: return .count(page.count)
        case .objectIDs: return .objectIDs(page.map(\.node.snapshot.objectID))
        case .snapshots: return .snapshots(page.map(\.node.snapshot))
        }
    }

    func snapshot(for objectID: ObjectID) throws -> Snapshot? {
        state.withLock { $0.nodes[objectID]?.snapshot }
    }

    func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        let entity = try entitySchema(named: objectID.entityName)
        guard let description = entity.relationshipsByName[relationship], description.isToMany else {
            throw StoreError(
                code: .unknownObject,
                message:
                    "\(storeName) cannot list members of '\(entity.name).\(relationship)': it is not a to-many relationship."
            )
        }
        guard let node = state.withLock({ $0.nodes[objectID] }) else {
            throw StoreError(code: .unknownObject, message: "\(storeName) has no object \(objectID).")
        }
        return node.toManyRelationships[relationship] ?? []
    }

    func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID] {
        for name in entityNames { _ = try entitySchema(named: name) }
        return state.withLock { state in
            entityNames.map { name in
                defer { state.nextReference += 1 }
                return ObjectID(storeIdentifier: identifier, entityName: name, reference: .integer(state.nextReference))
            }
        }
    }

    func save(_ changes: StoreChangeSet) throws {
        guard !options.isReadOnly else {
            throw StoreError(code: .readOnly, message: "\(storeName) was opened read-only.")
        }
        for change in changes.inserted + changes.updated { try validate(change) }
        try state.withLock { (state: inout State) throws in
            try Self.checkVersions(changes, against: state.nodes)
            var next = state
            for change in changes.inserted {
                next.nodes[change.objectID] = StoreNode(
                    snapshot: Snapshot(objectID: change.objectID, values: change.values, version: 1),
                    toManyRelationships: change.toManyRelationships)
            }
            for change in changes.updated {
                guard var node = next.nodes[change.objectID] else { continue }
                node.snapshot.values = change.values
                node.snapshot.version += 1
                node.toManyRelationships.merge(change.toManyRelationships) { _, new in new }
                next.nodes[change.objectID] = node
            }
            for deletion in changes.deleted { next.nodes[deletion.objectID] = nil }
            if let userInfo = changes.userInfo { next.metadata.userInfo = userInfo }
            let nodes = next.nodes.values.sorted { Self.storageOrder($0.snapshot.objectID, $1.snapshot.objectID) }
            try store.write(
                AtomicStoreContents(metadata: next.metadata, nodes: nodes, nextReference: next.nextReference))
            state = next
        }
    }

    /// Throws ``StoreError/Code/conflict`` listing every change whose expected version is
    /// not the stored one (or whose insert finds an object already there).
    private static func checkVersions(_ changes: StoreChangeSet, against nodes: [ObjectID: StoreNode]) throws {
        var conflicts: [StoreError.Conflict] = []
        for change in changes.inserted {
            if let stored = nodes[change.objectID] {
                conflicts.append(
                    .init(objectID: change.objectID, expectedVersion: 0, storedVersion: stored.snapshot.version))
            }
        }
        let expectations =
            changes.updated.map { ($0.objectID, $0.expectedVersion) }
            + changes.deleted.map { ($0.objectID, $0.expectedVersion) }
        for (objectID, expected) in expectations {
            let stored = nodes[objectID]?.snapshot.version
            if stored != expected {
                conflicts.append(.init(objectID: objectID, expectedVersion: expected, storedVersion: stored))
            }
        }
        guard conflicts.isEmpty else {
            let list = conflicts.map {
                "\($0.objectID) (expected version \($0.expectedVersion), stored \($0.storedVersion.map(String.init) ?? "none"))"
            }
            throw StoreError(
                code: .conflict,
                message: "The save conflicts with changes already saved: \(list.joined(separator: ", ")).",
                conflicts: conflicts)
        }
    }

    /// Throws ``StoreError/Code/invalidChange`` when `change` is not for a permanent object of
    /// this store, names a property its entity does not have, gives a value its attribute
    /// cannot hold, or refers to an object its relationship cannot hold.
    private func validate(_ change: StoreChangeSet.ObjectChange) throws {
        let entity = try entitySchema(named: change.objectID.entityName)
        func invalid(_ message: String) -> StoreError {
            StoreError(code: .invalidChange, message: "\(storeName) cannot save \(change.objectID): \(message)")
        }
        guard !change.objectID.isTemporary else {
            throw invalid("a temporary ID cannot be saved; get a permanent one from permanentIDs(forEntities:).")
        }
        guard change.objectID.storeIdentifier == identifier else {
            throw invalid("the ID belongs to store '\(change.objectID.storeIdentifier ?? "")', not '\(identifier)'.")
        }
        for (key, value) in change.values {
            if let attribute = entity.attributesByName[key], !attribute.isTransient {
                guard attribute.type.accepts(value) else {
                    throw invalid("'\(entity.name).\(key)' is \(attribute.type.modelFileName), not \(value).")
                }
            } else if let relationship = entity.relationshipsByName[key], !relationship.isToMany {
                guard case .objectID(let destination) = value else {
                    guard value.isNull else {
                        throw invalid("to-one '\(entity.name).\(key)' needs an object ID, not \(value).")
                    }
                    continue
                }
                try checkDestination(destination, of: relationship, in: entity, invalid)
            } else {
                throw invalid("'\(entity.name)' has no stored attribute or to-one relationship '\(key)'.")
            }
        }
        for (key, members) in change.toManyRelationships {
            guard let relationship = entity.relationshipsByName[key], relationship.isToMany else {
                throw invalid("'\(entity.name)' has no to-many relationship '\(key)'.")
            }
            for member in members { try checkDestination(member, of: relationship, in: entity, invalid) }
        }
    }

    /// Throws `invalid(…)` unless `destination` is an object `relationship` can hold: of its
    /// destination entity or a sub-entity, and not temporary.
    private func checkDestination(
        _ destination: ObjectID, of relationship: RelationshipDescription, in entity: EntitySchema,
        _ invalid: (String) -> StoreError
    ) throws {
        let path = "'\(entity.name).\(relationship.name)'"
        guard schema.entitiesByName[destination.entityName]?.isKind(of: relationship.destinationEntityName) == true
        else {
            throw invalid("\(path) holds \(relationship.destinationEntityName) objects, not \(destination).")
        }
        guard !destination.isTemporary else {
            throw invalid("\(path) refers to \(destination), which has a temporary ID.")
        }
    }

    /// The store as messages name it: its type and its file, or its identifier.
    private var storeName: String {
        url.map { "The \(typeName) store at '\($0.path)'" } ?? "The \(typeName) store \(identifier)"
    }

    private func entitySchema(named name: String) throws -> EntitySchema {
        guard let entity = schema.entitiesByName[name], entityNames.contains(name) else {
            let scope = configurationName.map { "configuration '\($0)' of " } ?? ""
            throw StoreError(
                code: .unknownEntity, message: "Entity '\(name)' is not in \(scope)the \(typeName) store's model.")
        }
        return entity
    }

    /// The order objects are kept in: by entity name, then by reference.
    private static func storageOrder(_ a: ObjectID, _ b: ObjectID) -> Bool {
        if a.entityName != b.entityName { return a.entityName < b.entityName }
        switch (a.reference, b.reference) {
        case (.integer(let x), .integer(let y)): return x < y
        default: return a.uriString < b.uriString
        }
    }
}
