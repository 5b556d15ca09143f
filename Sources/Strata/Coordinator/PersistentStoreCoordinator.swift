import Foundation
import Logging
import Synchronization

/// The facade of every store to every context: it opens stores by type name, stripes the
/// model's configurations across them, routes fetches and saves, and turns object-ID URIs back
/// into IDs.
///
/// ```swift
/// let coordinator = try PersistentStoreCoordinator(model: model)
/// try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Cache")
/// try coordinator.addStore(type: StoreType.inMemory.name, configuration: "User")
/// let context = ManagedObjectContext(coordinator: coordinator)
/// ```
///
/// The coordinator guards only its list of stores and store types, and never holds its lock
/// while it calls a store: each store handles its own concurrency, so many contexts on many
/// threads use one coordinator at once.
public final class PersistentStoreCoordinator: Sendable {
    struct State: Sendable {
        var types: [String: StoreType]
        var stores: [AddedStore] {
            didSet { observedStoreTypes = [:] }
        }
        /// What an observed operation on an entity names as its stores' types
        /// (``ObservedOperation/storeTypes``), worked out once per entity while the stores stay.
        var observedStoreTypes: [String: String] = [:]

        init(types: [String: StoreType], stores: [AddedStore]) {
            self.types = types
            self.stores = stores
        }
    }

    /// A store with the entity names its configuration holds.
    struct AddedStore: Sendable {
        let store: any IncrementalStore
        let entityNames: Set<String>
    }

    /// The model every store of this coordinator holds a configuration of.
    public let model: ManagedObjectModel
    /// The model's resolved form.
    public let schema: ModelSchema
    let state: Locked<State>
    /// The class registered for each entity.
    let classes = Locked<[String: ManagedObject.Type]>([:])
    /// How many times a class was registered, so that contexts know when the classes they
    /// looked up before may have changed.
    let classRegistrations = Atomic<Int>(0)
    /// Stored snapshots shared by the contexts, so that one object is read from its store once.
    let rowCache = RowCache()
    /// The plan stores written with older model versions are migrated by.
    let migrationPlanState = Locked<MigrationPlan?>(nil)
    /// Held while a store is migrated and added, so that additions that may migrate run one at
    /// a time.
    let migrationGate = Locked<Void>(())
    /// The contexts that merge other contexts' saves as they happen.
    let mergingContexts = Locked<[ObjectIdentifier: WeakContext]>([:])
    /// The coordinator's number among the coordinators of the process, which query generation
    /// tokens carry.
    let serial = PersistentStoreCoordinator.nextSerial()
    /// Where the coordinator got to in the history of the stores it watches for other
    /// writers' saves, and who listens for them.
    let remoteChangeWatch = RemoteChangeWatch()
    /// Who listens to the coordinator's writes (``storeWrites``).
    let storeWriteBroadcast = Broadcast<String>()
    /// A lock per store identifier, held while the coordinator writes the store, so that a
    /// striped save's checks still hold when it writes (docs/STRIPED-SAVES.md).
    let writeGates = Locked<[String: NSLock]>([:])
    /// What each step of a striped save calls, for tests.
    let stripedSaveProbe = Locked<(@Sendable (StripedSaveStep) -> Void)?>(nil)
    /// How many query generations the coordinator has taken.
    let generationSequence = Atomic<UInt64>(0)
    /// Where the coordinator, its contexts and its stores log: stores opened and closed,
    /// migrations, save conflicts retried, and what each store logs of its own (an SQLite
    /// store's slow statements, say).
    public let logger: Logger

    /// A logger that discards everything: what a coordinator logs to when it is given none.
    public static var silentLogger: Logger { Logger(label: "strata", factory: { _ in SwiftLogNoOpLogHandler() }) }

    /// The value transformers of the model's transformable attributes, by name.
    public let valueTransformers: ValueTransformerRegistry

    /// What watches the coordinator's fetches, saves, batch requests, migrations and events for
    /// metrics and tracing; `nil` when nothing does, which costs nothing.
    public let observer: (any OperationObserver)?

    /// Creates a coordinator with no stores for `model`, freezing the model, with the built-in
    /// ``StoreType/inMemory`` type and `storeTypes` registered, `valueTransformers` for the
    /// model's transformable attributes, logging to `logger` (by default nowhere) and watched by
    /// `observer` (by default nothing).
    ///
    /// A store is added only when every transformable attribute of its configuration has its
    /// transformer in `valueTransformers`.
    ///
    /// - Throws: ``ModelError`` when the model is invalid.
    public init(
        model: ManagedObjectModel, storeTypes: [StoreType] = [],
        valueTransformers: ValueTransformerRegistry = ValueTransformerRegistry(), logger: Logger = silentLogger,
        observer: (any OperationObserver)? = nil
    ) throws {
        try model.freeze()
        self.model = model
        self.valueTransformers = valueTransformers
        self.logger = logger
        self.observer = observer
        self.schema = model.schema
        let types = [StoreType.inMemory] + storeTypes
        state = Locked(
            State(types: Dictionary(types.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last }), stores: []))
        classes.withLock { $0 = model.classes }
    }

    /// Closes every store still added (``PersistentStore/close()``).
    deinit {
        for added in state.withLock({ $0.stores }) { close(added.store) }
    }

    /// Closes `store` and logs it.
    func close(_ store: any IncrementalStore) {
        store.close()
        logger.info("Store closed", metadata: Self.logMetadata(of: store))
    }

    /// What log lines about `store` carry: its type, identifier and file.
    static func logMetadata(of store: any IncrementalStore) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["store.type": "\(store.typeName)", "store.identifier": "\(store.identifier)"]
        if let url = store.url { metadata["store.url"] = "\(url.path)" }
        if let configuration = store.configurationName { metadata["store.configuration"] = "\(configuration)" }
        return metadata
    }

    /// Registers a store type, replacing any of the same name.
    public func register(_ type: StoreType) {
        state.withLock { $0.types[type.name] = type }
    }

    /// The names of the registered store types, sorted.
    public var storeTypeNames: [String] {
        state.withLock { $0.types.keys.sorted() }
    }

    /// The registered store type called `name`.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unknownStoreType`` naming the known types.
    public func storeType(named name: String) throws -> StoreType {
        let (type, known) = state.withLock { ($0.types[name], $0.types.keys.sorted()) }
        guard let type else {
            throw StoreError(
                code: .unknownStoreType,
                message: "No store type '\(name)' is registered; known types: \(known.joined(separator: ", ")). "
                    + "Register it with PersistentStoreCoordinator.register(_:).")
        }
        return type
    }
}
