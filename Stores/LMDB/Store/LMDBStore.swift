import Foundation
import Strata

/// Strata's LMDB store: an incremental store on liblmdb's memory-mapped B+tree, in one data
/// file plus its `-lock` file (docs/LMDB.md).
///
/// Every fetch and load runs in one read transaction, so it sees one committed state; every
/// save is one write transaction, checked against the stored versions for optimistic locking,
/// with the metadata in the same transaction. Many threads and processes read at once while
/// one writes. The map grows by doubling when a save fills it.
///
/// Opened through ``Strata/StoreType/lmdb``, with ``LMDBStoreOptions``.
final class LMDBStore: IncrementalStore {
    /// The store type's name.
    static let storeTypeName = "LMDB"

    /// The predicate features whose comparisons the store answers from an index: `==`, `<`,
    /// `<=`, `>`, `>=`, `BETWEEN` and `IN` between an indexed attribute or a to-one
    /// relationship and constants, and `AND` and `OR` of them (docs/LMDB.md lists the exact
    /// shapes). Every other predicate (``predicateFeatures`` is `PredicateFeatures/all`) is
    /// evaluated with the core's evaluator over the decoded records, inside the same read
    /// transaction, following to-one and to-many relationships to their records.
    static let indexedFeatures: PredicateFeatures = [.comparisons, .compounds, .membership]

    public let typeName = LMDBStore.storeTypeName
    public let identifier: String
    public let capabilities: StoreCapabilities
    public let predicateFeatures = PredicateFeatures.all

    /// The file's environment, shared with every store open on it in this process.
    let environment: LMDBEnvironment
    /// The tables records are coded with.
    let layout: LMDBLayout
    /// The store's named databases.
    let databases: LMDBDatabases
    /// The indexed properties of each entity.
    let indexes: LMDBIndexes
    /// The model.
    let model: ModelSchema
    /// The entities of the store's configuration.
    let entityNames: Set<String>
    /// How fetches were answered and how many records were decoded.
    let statistics = LMDBStoreStatistics()
    /// The read views of query generations still open, released when the store closes.
    let generations = OpenGenerations()
    /// The history transactions this store recorded, told apart from other writers'.
    let recordedHistory = RemoteHistoryWatch()
    /// The files holding large values of attributes that allow external storage.
    let externalData: ExternalBinaryData
    /// The external data files saves made obsolete, kept while query generations may read them.
    let externalRemovals = ExternalBinaryDataRemovals()
    /// The attributes of each entity whose values are external binary data, for the entities
    /// that have any.
    let externalAttributes: [String: [String]]
    /// Object numbers reserved in the counters database and not handed out yet.
    let reservedKeys = Locked(KeyReservations())
    private let currentMetadata: Locked<StoreMetadata>
    private let request: StoreOpenRequest

    init(
        request: StoreOpenRequest, environment: LMDBEnvironment, layout: LMDBLayout, databases: LMDBDatabases,
        indexes: LMDBIndexes, metadata: StoreMetadata
    ) {
        self.request = request
        self.identifier = metadata.storeIdentifier
        self.capabilities =
            environment.hasRelaxedDurability
            ? [
                .queryGenerations, .persistentHistory, .multiProcessAccess, .batchOperations, .batchComputedValues,
                .externalBinaryStorage, .crossStoreRelationships, .relaxedDurability,
            ]
            : [
                .queryGenerations, .persistentHistory, .multiProcessAccess, .batchOperations, .batchComputedValues,
                .externalBinaryStorage, .crossStoreRelationships,
            ]
        self.environment = environment
        self.layout = layout
        self.databases = databases
        self.indexes = indexes
        self.model = request.model.schema
        self.entityNames = Set(request.model.entityNames(inConfiguration: request.configurationName))
        self.currentMetadata = Locked(metadata)
        self.externalData = ExternalBinaryData(storePath: environment.path, keepingExtension: true)
        self.externalAttributes = request.model.schema.entities.reduce(into: [:]) { attributes, entity in
            let names = entity.attributes.filter(\.storesExternally).map(\.name)
            if !names.isEmpty { attributes[entity.name] = names }
        }
    }

    public var url: URL? { request.url }

    public var configurationName: String? { request.configurationName }

    public var options: StoreOptions { request.options }

    /// The store as messages name it.
    var storeName: String { "The LMDB store at '\(environment.path)'" }

    public var metadata: StoreMetadata { currentMetadata.withLock { $0 } }

    /// Records `metadata` as the last saved.
    func setMetadata(_ metadata: StoreMetadata) { currentMetadata.withLock { $0 = metadata } }

    /// The schema of `name`, which must be an entity of the store's configuration.
    func entitySchema(named name: String) throws -> EntitySchema {
        if entityNames.contains(name), let entity = model.entitiesByName[name] { return entity }
        let configuration = configurationName.map { " (configuration '\($0)')" } ?? ""
        throw StoreError(code: .unknownEntity, message: "\(storeName)\(configuration) holds no entity '\(name)'.")
    }

    /// A read view pinned to the last committed state: a liblmdb read transaction held while
    /// the view lives.
    ///
    /// - Throws: `StoreError/Code/generationUnavailable` when query generations hold half the
    ///   reader table already.
    public func openGeneration() throws -> (any StoreGeneration)? {
        do {
            let generation = try LMDBGeneration(store: self)
            generations.add(generation)
            return generation
        } catch let error as LMDBError {
            throw LMDBStoreFile.storeError(error, path: environment.path, doing: "opening a query generation")
        }
    }

    /// Releases every query generation's read view: a removed store holds no reader slot.
    public func close() {
        generations.releaseAll(because: "its store was closed")
        reservedKeys.withLock { $0.removeAll() }
    }

    /// Runs `body` in one read transaction with a loader for its records: in `generation`'s
    /// transaction when one is given.
    func read<T>(
        _ action: String, in generation: LMDBGeneration? = nil, _ body: (LMDBObjectLoader) throws -> T
    ) throws -> T {
        func load(_ transaction: LMDBTransaction) throws -> T {
            let loader = LMDBObjectLoader(store: self, transaction: transaction)
            let result = try body(loader)
            if let failure = loader.failure { throw failure }
            return result
        }
        do {
            if let generation { return try generation.withTransaction(load) }
            return try environment.read(load)
        } catch let error as LMDBError {
            throw LMDBStoreFile.storeError(error, path: environment.path, doing: action)
        }
    }

    /// Runs `body` in one write transaction and commits it.
    func write<T>(_ action: String, _ body: (LMDBObjectLoader) throws -> T) throws -> T {
        guard !options.isReadOnly else {
            throw StoreError(code: .readOnly, message: "\(storeName) was opened read-only.")
        }
        let logsGrowth = request.logger.logLevel <= .notice
        let mapSizeBefore = logsGrowth ? environment.mapSize : 0
        defer {
            if logsGrowth, environment.mapSize > mapSizeBefore {
                request.logger.notice(
                    "LMDB map grown",
                    metadata: ["store.url": "\(environment.path)", "map.bytes": "\(environment.mapSize)"])
            }
        }
        let external = ExternalBinaryDataWrites()
        let result: T
        do {
            result = try environment.write { transaction in
                external.startAttempt()
                return try body(LMDBObjectLoader(store: self, transaction: transaction, externalWrites: external))
            }
        } catch let error as LMDBError {
            external.failed(in: externalData)
            throw LMDBStoreFile.storeError(error, path: environment.path, doing: action)
        } catch {
            external.failed(in: externalData)
            throw error
        }
        // A store trading durability for speed may lose this commit in a system crash: its
        // obsolete files stay until an opening finds no record refers to them.
        if !environment.hasRelaxedDurability {
            external.committed(in: externalData, removals: externalRemovals, oldestReader: generations.oldestOpened)
        }
        return result
    }
}
