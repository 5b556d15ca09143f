import Foundation
import Logging
@_spi(StoreAuthoring) import Strata

/// Strata's PostgreSQL store: an incremental store whose objects live in tables of one
/// PostgreSQL schema, shared by every process on every machine that opens the same URL
/// (docs/POSTGRES.md).
///
/// Fetches translate what they can of their predicates and sorts into SQL with bound
/// parameters and evaluate the rest with the core's evaluator; every save is one transaction
/// that locks the rows it changes, checks their versions, writes, and commits.
///
/// Opened through ``Strata/StoreType/postgres``.
final class PostgresStore: IncrementalStore {
    /// The store type's name.
    static let storeTypeName = "PostgreSQL"

    public let typeName = PostgresStore.storeTypeName
    public let identifier: String
    public let capabilities: StoreCapabilities = [
        .multiProcessAccess, .persistentHistory, .crossStoreRelationships, .batchOperations, .batchComputedValues,
        .queryGenerations, .externalBinaryStorage,
    ]
    public let predicateFeatures = PredicateFeatures.all

    let location: PostgresLocation
    let pool: PostgresConnectionPool
    let layout: PostgresLayout
    let model: ModelSchema
    /// The entities of the store's configuration.
    let entityNames: Set<String>
    /// How each table's rows are selected and read.
    let rowReaders: [String: PostgresRowReader]
    let logger: Logger
    /// The tables of the store's persistent history.
    let history: PostgresHistoryTables
    /// How history records write object IDs: this store's without its identifier.
    let historyContext: BinaryCodingContext
    /// The history transactions this store instance recorded, for ``remoteHistory(after:)``.
    let recordedHistory = RemoteHistoryWatch()
    /// The connection that hears of other writers' saves.
    let changeListener: PostgresChangeListener
    /// The largest key this instance handed out: the sequence is past it, so inserting keys up
    /// to it needs no move of the sequence.
    let largestKeyHandedOut = Locked<Int64>(0)
    /// Whether the server allows prepared transactions (`max_prepared_transactions` above 0),
    /// once asked: a setting that changes only when the server restarts.
    let allowsPreparedTransactions = Locked<Bool?>(nil)
    /// The store's settings.
    let settings: PostgresStoreSettings
    /// Which GiST indexes of R-tree fetch indexes a fetch searches.
    let spatialPlanner: PostgresSpatialPlanner
    /// The read views of query generations still open, released when the store closes or
    /// when they outlive ``PostgresStoreSettings/maximumGenerationAge``.
    let generations = OpenGenerations()
    private let request: StoreOpenRequest
    private let currentMetadata: Locked<StoreMetadata>

    init(
        request: StoreOpenRequest, location: PostgresLocation, pool: PostgresConnectionPool, layout: PostgresLayout,
        metadata: StoreMetadata, settings: PostgresStoreSettings, spatialIndexes: [PostgresLayout.SpatialIndex]
    ) {
        self.request = request
        spatialPlanner = PostgresSpatialPlanner(indexes: spatialIndexes)
        self.settings = settings
        self.location = location
        self.pool = pool
        self.layout = layout
        model = request.model.schema
        identifier = metadata.storeIdentifier
        entityNames = Set(request.model.entityNames(inConfiguration: request.configurationName))
        logger = request.logger
        currentMetadata = Locked(metadata)
        history = PostgresHistoryTables(schemaName: location.schema)
        historyContext = BinaryCodingContext(homeStoreIdentifier: metadata.storeIdentifier)
        changeListener = PostgresChangeListener(pool: pool, channel: history.channel)
        var readers: [String: PostgresRowReader] = [:]
        for table in layout.entityTables {
            readers[table.name] = PostgresRowReader(
                table: table, layout: layout, model: request.model.schema, storeIdentifier: metadata.storeIdentifier)
        }
        rowReaders = readers
    }

    public var url: URL? { request.url }
    public var configurationName: String? { request.configurationName }
    public var options: StoreOptions { request.options }
    public var metadata: StoreMetadata { currentMetadata.withLock { $0 } }

    /// How messages name the store: its URL, without a password.
    var storeName: String { "The PostgreSQL store at \(location.displayName)" }

    func setMetadata(_ metadata: StoreMetadata) { currentMetadata.withLock { $0 = metadata } }

    /// Releases every query generation's read view, and closes the pool's idle connections
    /// and the listening one; the store connects again when it is used.
    public func close() {
        generations.releaseAll(because: "its store was closed")
        pool.drain()
        changeListener.close()
    }

    /// A read view pinned to the last committed state: a transaction of its own on a
    /// connection of its own (``PostgresGeneration``), held while the view lives.
    ///
    /// - Throws: ``StoreError/Code/generationUnavailable`` when
    ///   ``PostgresStoreSettings/maximumGenerations`` views are open already; what connecting
    ///   throws.
    public func openGeneration() throws -> (any StoreGeneration)? {
        generations.releaseExpired(maximumAge: settings.maximumGenerationAge)
        guard generations.openCount < settings.maximumGenerations else {
            throw StoreError(
                code: .generationUnavailable,
                message: "\(storeName) holds \(settings.maximumGenerations) query generations already, each on a "
                    + "server connection of its own (setting 'maximumGenerations'); let a pinned context move on first."
            )
        }
        let generation = try PostgresGeneration(store: self)
        generations.add(generation)
        return generation
    }

    /// The schema of the entity called `name`, which the store must hold.
    func entitySchema(named name: String) throws -> EntitySchema {
        if entityNames.contains(name), let entity = model.entitiesByName[name] { return entity }
        let configuration = configurationName.map { " (configuration '\($0)')" } ?? ""
        throw StoreError(code: .unknownEntity, message: "\(storeName)\(configuration) holds no entity '\(name)'.")
    }

    /// The table and entity number of `objectID`'s entity, and its primary key; an error for an
    /// ID that is not one of the store's.
    func place(of objectID: ObjectID) throws -> (reader: PostgresRowReader, entity: Int16, key: Int64) {
        let entity = try entitySchema(named: objectID.entityName)
        guard objectID.storeIdentifier == identifier, case .integer(let key) = objectID.reference,
            let table = layout.tableOfEntity[entity.name], let reader = rowReaders[table.name],
            let number = layout.entityNumbers[entity.name]
        else {
            throw StoreError(code: .unknownObject, message: "\(storeName) has no object \(objectID).")
        }
        return (reader, number, key)
    }

    /// The object ID of row `key` of `entityName`.
    func objectID(_ entityName: String, _ key: Int64) -> ObjectID {
        ObjectID(storeIdentifier: identifier, entityName: entityName, reference: .integer(key))
    }

    /// Runs `body` with a pooled connection; errors become ``StoreError``s naming the store.
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try pool.withConnection(body)
    }
}
