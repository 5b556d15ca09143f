import Foundation
import Strata

/// Strata's SQLite store: an incremental store in Core Data's own SQLite layout, so that a
/// store made by Core Data opens in Strata and back (docs/SQLITE.md).
///
/// Reads run on a pool of reader connections while one writer saves, in WAL mode; each save
/// is one transaction, checked against `Z_OPT` for optimistic locking; new objects get their
/// primary keys from `Z_PRIMARYKEY`. Fetches become one SQL statement when their predicate
/// and sort translate (``pushDownFeatures``); otherwise the store evaluates the rest with the
/// core's evaluator, with the same results.
///
/// Opened through ``Strata/StoreType/sqlite``, with ``SQLiteStoreOptions``.
final class SQLiteStore: IncrementalStore {
    /// The store type's name, as Core Data's `NSSQLiteStoreType`.
    static let storeTypeName = "SQLite"

    /// The predicate features the store translates to SQL (docs/SQLITE.md lists the exact
    /// shapes). It also accepts every other predicate (``predicateFeatures`` is
    /// `PredicateFeatures/all`) and evaluates the parts it cannot translate in memory, with
    /// the same answers: functions, arithmetic, comparisons of two key paths, decimal values,
    /// `@avg`, `@sum` of 64-bit integers and of reals, and localized sorts.
    static let pushDownFeatures: PredicateFeatures = [
        .comparisons, .compounds, .membership, .stringMatching, .stringOptions, .regularExpressions,
        .relationshipKeyPaths, .quantifiers, .collectionOperators, .subqueries,
    ]

    public let typeName = SQLiteStore.storeTypeName
    public let identifier: String
    public let url: URL?
    public let configurationName: String?
    public let options: StoreOptions
    public let capabilities: StoreCapabilities = [
        .queryGenerations, .persistentHistory, .multiProcessAccess, .batchOperations, .batchComputedValues,
        .externalBinaryStorage, .crossStoreRelationships,
    ]
    public let predicateFeatures = PredicateFeatures.all

    let layout: SQLiteSchema
    /// The R-tree indexes of the layout the file has (one made before the model gained an index
    /// lacks it).
    let rTrees: SQLiteRTreePlanner
    let model: ModelSchema
    let entityNames: Set<String>
    let pool: SQLiteConnectionPool
    let path: String
    /// The files holding large values of attributes that allow external storage.
    let externalData: SQLiteExternalData
    /// The external data files saves made obsolete, kept while query generations may read them.
    let externalRemovals = ExternalBinaryDataRemovals()
    /// Whether an entity of the store keeps external binary data, so saves of stores without
    /// any skip looking for it.
    let hasExternalAttributes: Bool
    let statistics = SQLiteStoreStatistics()
    /// What the store logs of its statements.
    let trace: SQLiteDebugTrace
    /// How to read a row of each entity, by entity name.
    let rowReaders: [String: SQLiteRowReader]
    /// Each entity's name by its number in `Z_ENT`.
    let entityNamesByNumber: [Int64: String]
    /// The namespace of each entity's IDs in this store, by its number in `Z_ENT`.
    let namespacesByNumber: [Int64: ObjectID.Namespace]
    /// Where each entity of the store keeps its rows, by its number in `Z_ENT`.
    let entityRowsByNumber: [Int64: EntityRow]
    /// Where each entity of the store keeps its rows, by the namespace of its IDs here.
    let entityRowsByNamespace: [ObjectID.Namespace: EntityRow]
    /// How the history tables list each entity's properties, by entity name.
    let historyEntities: [String: SQLiteHistoryEntity]
    /// Where the layout keeps the members of each to-many relationship of each entity of the
    /// store, by entity and relationship name.
    let toManyStorages: [String: [String: SQLiteSchema.ToManyStorage]]

    /// Where an entity's rows are and how to read them; a class, shared rather than copied by
    /// each lookup.
    final class EntityRow: Sendable {
        /// The entity's number in `Z_ENT`.
        let number: Int64
        let reader: SQLiteRowReader
        let table: SQLiteSchema.EntityTable
        /// The statement reading one owner's members, by to-many relationship name.
        let membersByKey: [String: String]

        init(number: Int64, reader: SQLiteRowReader, table: SQLiteSchema.EntityTable, membersByKey: [String: String]) {
            self.number = number
            self.reader = reader
            self.table = table
            self.membersByKey = membersByKey
        }
    }
    /// The file's journal mode.
    enum Journal: Sendable {
        /// Write-ahead logging: readers read while the writer writes.
        case wal
        /// Another mode, to be switched to WAL before the first save writes (opening a store
        /// never writes to its file).
        case switchesToWALOnSave
        /// Another mode, kept: the store was opened read-only.
        case other
    }

    /// How long a query generation's read view may hold its read transaction.
    let maximumGenerationAge: Duration
    /// The read views of query generations still open, released when the store closes or
    /// when they outlive ``maximumGenerationAge``.
    let generations = OpenGenerations()
    /// The history transactions this store recorded, told apart from other writers'.
    let recordedHistory = RemoteHistoryWatch()
    /// Primary keys reserved in `Z_PRIMARYKEY` and not handed out yet.
    let reservedKeys = Locked(KeyReservations())
    private let currentMetadata: Locked<StoreMetadata>
    private let journal: Locked<Journal>

    init(
        request: StoreOpenRequest, path: String, layout: SQLiteSchema, rTreeIndexes: [SQLiteSchema.RTreeIndex],
        pool: SQLiteConnectionPool, metadata: StoreMetadata, journal: Journal, settings: SQLiteStoreSettings
    ) {
        self.trace = settings.trace
        self.maximumGenerationAge = settings.maximumGenerationAge
        self.identifier = metadata.storeIdentifier
        self.url = request.url
        self.configurationName = request.configurationName
        self.options = request.options
        self.layout = layout
        self.rTrees = SQLiteRTreePlanner(indexes: rTreeIndexes, layout: layout)
        self.model = request.model.schema
        self.entityNames = Set(request.model.entityNames(inConfiguration: request.configurationName))
        self.rowReaders = SQLiteRowReader.readers(for: entityNames, layout: layout, model: model)
        self.entityNamesByNumber = Dictionary(
            layout.entityNumbers.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        self.namespacesByNumber = entityNamesByNumber.mapValues { [identifier] in
            ObjectID.Namespace(storeIdentifier: identifier, entityName: $0)
        }
        self.entityRowsByNumber = layout.entityNumbers.reduce(into: [:]) {
            [rowReaders, model = request.model.schema] rows, entry in
            guard let reader = rowReaders[entry.key], let table = layout.tableOfEntity[entry.key] else { return }
            var membersByKey: [String: String] = [:]
            for relationship in reader.entity.relationships where relationship.isToMany {
                guard let storage = layout.toManyStorage(of: relationship, in: reader.entity, model: model) else {
                    continue
                }
                membersByKey[relationship.name] = Self.membersStatement(
                    storage: storage, owners: table.name, condition: "= ?")
            }
            rows[entry.value] = EntityRow(number: entry.value, reader: reader, table: table, membersByKey: membersByKey)
        }
        self.entityRowsByNamespace = entityRowsByNumber.reduce(into: [:]) { [namespacesByNumber] rows, entry in
            if let namespace = namespacesByNumber[entry.key] { rows[namespace] = entry.value }
        }
        self.historyEntities = entityNames.reduce(into: [:]) { [model = request.model.schema] entities, name in
            if let entity = model.entitiesByName[name] { entities[name] = SQLiteHistoryEntity(entity) }
        }
        self.toManyStorages = entityNames.reduce(into: [:]) { [model = request.model.schema] storages, name in
            guard let entity = model.entitiesByName[name] else { return }
            for relationship in entity.relationships where relationship.isToMany {
                if let storage = layout.toManyStorage(of: relationship, in: entity, model: model) {
                    storages[name, default: [:]][relationship.name] = storage
                }
            }
        }
        self.pool = pool
        self.path = path
        self.externalData = SQLiteExternalData(storePath: path)
        self.hasExternalAttributes = rowReaders.values.contains { !$0.externalAttributes.isEmpty }
        self.currentMetadata = Locked(metadata)
        self.journal = Locked(journal)
    }

    public var metadata: StoreMetadata { currentMetadata.withLock { $0 } }

    func setMetadata(_ metadata: StoreMetadata) { currentMetadata.withLock { $0 = metadata } }

    /// Releases every query generation's read view, then closes every connection to the file,
    /// so that the last one to close removes the WAL's `-wal` and `-shm` files; the next read
    /// or save opens them again.
    public func close() {
        generations.releaseAll(because: "its store was closed")
        reservedKeys.withLock { $0.removeAll() }
        pool.close()
    }

    /// A read view pinned to the last saved state: a read transaction on a connection of the
    /// pool, held while the view lives. `nil` while the file is not in WAL mode, where a held
    /// read transaction would keep every save waiting: the context then reads the latest state.
    public func openGeneration() throws -> (any StoreGeneration)? {
        guard journal.withLock({ $0 }) == .wal else { return nil }
        do {
            let generation = try SQLiteGeneration(store: self)
            generations.add(generation)
            return generation
        } catch let error as SQLiteError {
            throw storeError(error, doing: "opening a query generation")
        }
    }

    /// The store as messages name it.
    var storeName: String { "The SQLite store at '\(path)'" }

    /// The schema of `name`, which must be an entity of the store.
    func entitySchema(named name: String) throws -> EntitySchema {
        guard let entity = model.entitiesByName[name], entityNames.contains(name) else {
            let scope = configurationName.map { "configuration '\($0)' of " } ?? ""
            throw StoreError(
                code: .unknownEntity, message: "Entity '\(name)' is not in \(scope)the SQLite store's model.")
        }
        return entity
    }

    /// `error` as a `StoreError` that names the store.
    func storeError(_ error: SQLiteError, doing action: String) -> StoreError {
        SQLiteStoreFile.storeError(error, path: path, doing: action)
    }

    /// Runs `body` with a reader in one read transaction, so that it sees one state of the
    /// file: in `generation`'s transaction when one is given. `evaluations` answer the
    /// `strata_evaluate` calls of the statements `body` runs.
    func read<T>(
        _ action: @autoclosure () -> String, in generation: SQLiteGeneration? = nil,
        evaluating evaluations: SQLiteRowEvaluations? = nil, _ body: (SQLiteConnection) throws -> T
    ) throws -> T {
        do {
            if let generation {
                return try generation.withConnection { connection in
                    try connection.evaluating(evaluations) { try body(connection) }
                }
            }
            return try pool.withReader { connection in
                try connection.evaluating(evaluations) {
                    try connection.transaction(immediate: false) { try body(connection) }
                }
            }
        } catch let error as SQLiteError {
            throw evaluationFailure(of: evaluations) ?? storeError(error, doing: action())
        }
    }

    /// Runs `body` with the writer in one write transaction, after releasing the query
    /// generations' read views that outlived ``maximumGenerationAge`` (each save grows the WAL
    /// they keep from being checkpointed). `evaluations` answer the `strata_evaluate` calls of
    /// the statements `body` runs.
    func write<T>(
        _ action: @autoclosure () -> String, evaluating evaluations: SQLiteRowEvaluations? = nil,
        _ body: (SQLiteConnection) throws -> T
    ) throws -> T {
        guard !options.isReadOnly else {
            throw StoreError(code: .readOnly, message: "\(storeName) was opened read-only.")
        }
        generations.releaseExpired(maximumAge: maximumGenerationAge)
        do {
            return try pool.withWriter { connection in
                if journal.withLock({ $0 }) == .switchesToWALOnSave {
                    try connection.execute(script: "PRAGMA journal_mode = WAL")
                    journal.withLock { $0 = .wal }
                }
                return try connection.evaluating(evaluations) {
                    try connection.transaction(immediate: true) { try body(connection) }
                }
            }
        } catch let error as SQLiteError {
            throw evaluationFailure(of: evaluations) ?? storeError(error, doing: action())
        }
    }

    /// The error to report for the failure that stopped a statement in `strata_evaluate`:
    /// the core evaluator's, as an in-memory evaluation would report it, a corrupt value
    /// named, or ``SQLiteRowEvaluations/Failure/unfit(key:value:)`` for the batch update to
    /// hand back to the core.
    private func evaluationFailure(of evaluations: SQLiteRowEvaluations?) -> (any Error)? {
        switch evaluations?.failure {
        case nil: return nil
        case .evaluation(let error)?: return error
        case .corrupt(let column, let value, let attribute, let type)?:
            return StoreError(
                code: .corrupt,
                message:
                    "\(storeName) holds \(value) in column \(column), which is not a valid \(type.modelFileName) for "
                    + "'\(attribute)'.")
        case let unfit?: return unfit
        }
    }
}
