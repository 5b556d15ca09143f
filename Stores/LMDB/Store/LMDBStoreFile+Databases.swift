import CStrataLMDB
import Foundation
@_spi(StoreAuthoring) import Strata

extension LMDBStoreFile {
    /// Opens the named databases of the store in `environment`, creating them with the
    /// metadata of a new store when the environment holds nothing yet, and checks the format
    /// version and the model.
    static func prepare(_ environment: LMDBEnvironment, for request: StoreOpenRequest) throws -> (
        LMDBLayout, LMDBDatabases, StoreMetadata
    ) {
        let path = environment.path
        let roots = Set(
            request.model.entityNames(inConfiguration: request.configurationName).compactMap {
                request.model.schema.entitiesByName[$0]?.rootEntityName
            })
        let stored = try environment.read(keepingDatabases: true) { transaction in
            try storedTables(in: transaction, path: path)
        }
        if let stored { return try openExisting(stored, in: environment, roots: roots, for: request) }
        guard !environment.isReadOnly, !request.options.isReadOnly else {
            throw StoreError(code: .corrupt, message: "The LMDB file at '\(path)' holds no Strata store.")
        }
        let metadata = StoreMetadata(
            storeType: LMDBStore.storeTypeName, storeIdentifier: request.identifierForNewStore,
            model: request.model, configuration: request.configurationName, userInfo: request.userInfoForNewStore)
        let (entities, properties) = LMDBLayout.tables(for: request.model.schema)
        // Another coordinator, in this process or another, may have made the store since the
        // read: asked again under the write lock, the store is made once, and every opener
        // takes the identifier its file holds.
        let made = try environment.write(keepingDatabases: true) { transaction -> Making in
            if let stored = try storedTables(in: transaction, path: path) { return .found(stored) }
            let databases = try create(in: transaction, roots: roots)
            try transaction.put(databases.meta, LMDBLayout.formatKey, bigEndian(LMDBLayout.formatVersion))
            try transaction.put(databases.meta, LMDBLayout.entitiesKey, LMDBLayout.encode(names: entities))
            try transaction.put(databases.meta, LMDBLayout.propertiesKey, LMDBLayout.encode(names: properties))
            try writeMetadata(metadata, in: transaction, databases.meta)
            return .made(databases)
        }
        switch made {
        case .found(let stored):
            return try openExisting(stored, in: environment, roots: roots, for: request)
        case .made(var databases):
            databases.history = try historyDatabases(in: environment, meta: databases.meta, for: request)
            return (layout(metadata, entities, properties, path, request.model.schema), databases, metadata)
        }
    }

    /// The meta database, coding tables and metadata of a store an environment holds.
    private typealias StoredTables = (MDB_dbi, [String], [String], StoreMetadata)

    /// What the write that makes a new store did: made its databases, or found the tables of a
    /// store another opener made first.
    private enum Making {
        case made(LMDBDatabases)
        case found(StoredTables)
    }

    /// Opens the named databases of the store whose `stored` tables an environment holds, once
    /// its metadata says `request`'s model and configuration can read it.
    private static func openExisting(
        _ stored: StoredTables, in environment: LMDBEnvironment, roots: Set<String>,
        for request: StoreOpenRequest
    ) throws -> (LMDBLayout, LMDBDatabases, StoreMetadata) {
        let path = environment.path
        let (meta, entities, properties, metadata) = stored
        try request.model.checkCompatible(
            configuration: request.configurationName, metadata: metadata, place: "'\(path)'")
        var databases = try environment.read(keepingDatabases: true) { transaction in
            try existingDatabases(in: transaction, meta: meta, roots: roots, path: path)
        }
        databases.history = try historyDatabases(in: environment, meta: databases.meta, for: request)
        return (layout(metadata, entities, properties, path, request.model.schema), databases, metadata)
    }

    private static func layout(
        _ metadata: StoreMetadata, _ entities: [String], _ properties: [String], _ path: String, _ schema: ModelSchema
    ) -> LMDBLayout {
        LMDBLayout(
            context: BinaryCodingContext(
                homeStoreIdentifier: metadata.storeIdentifier, entityNames: entities, propertyNames: properties),
            source: "'\(path)'", entities: entities.map { schema.entitiesByName[$0] })
    }

    /// The history databases of the store: created when the store tracks history, may write
    /// and has never kept any, opened when the file has them; `nil` otherwise. A file that kept
    /// history and lacks one of its databases is `corrupt`: creating them anew would lose it.
    private static func historyDatabases(
        in environment: LMDBEnvironment, meta: MDB_dbi, for request: StoreOpenRequest
    ) throws -> LMDBHistoryLayout? {
        let path = environment.path
        let existing = try environment.read(keepingDatabases: true) { transaction in
            (
                transactions: try transaction.openDatabase(LMDBHistoryLayout.transactionDatabase, create: false),
                changes: try transaction.openDatabase(LMDBHistoryLayout.changeDatabase, create: false),
                counted: try transaction.get(meta, LMDBHistoryLayout.countersKey) != nil
            )
        }
        if let transactions = existing.transactions, let changes = existing.changes {
            return LMDBHistoryLayout(transactions: transactions, changes: changes)
        }
        if existing.counted || existing.transactions != nil || existing.changes != nil {
            let missing =
                existing.transactions == nil
                ? LMDBHistoryLayout.transactionDatabase : LMDBHistoryLayout.changeDatabase
            throw StoreError(
                code: .corrupt,
                message: "The LMDB store at '\(path)' has kept persistent history but has no database '\(missing)'.")
        }
        guard request.options.tracksPersistentHistory, !request.options.isReadOnly, !environment.isReadOnly else {
            return nil
        }
        return try environment.write(keepingDatabases: true) { transaction in
            LMDBHistoryLayout(
                transactions: try createDatabase(LMDBHistoryLayout.transactionDatabase, in: transaction),
                changes: try createDatabase(LMDBHistoryLayout.changeDatabase, in: transaction))
        }
    }

    /// The meta database, coding tables and metadata of an existing store; `nil` for an empty
    /// environment.
    private static func storedTables(in transaction: LMDBTransaction, path: String) throws -> StoredTables? {
        guard let meta = try transaction.openDatabase(LMDBLayout.metaDatabase, create: false) else {
            guard try transaction.count(LMDBTransaction.mainDatabase) == 0 else {
                throw StoreError(
                    code: .corrupt,
                    message: "The LMDB file at '\(path)' is not a Strata store: it has no '\(LMDBLayout.metaDatabase)' "
                        + "database.")
            }
            return nil
        }
        try checkFormat(in: transaction, meta, path: path)
        try checkMetaKeys(in: transaction, meta, path: path)
        let metadata = try readMetadata(in: transaction, meta, path: path)
        func table(_ key: [UInt8], _ name: String) throws -> [String] {
            guard let bytes = try transaction.get(meta, key) else {
                throw StoreError(code: .corrupt, message: "The LMDB store at '\(path)' has no \(name) table.")
            }
            return try LMDBLayout.decodeNames(bytes, source: "The \(name) table of '\(path)'")
        }
        return (
            meta, try table(LMDBLayout.entitiesKey, "entity"), try table(LMDBLayout.propertiesKey, "property"), metadata
        )
    }

    /// The databases of an existing store whose model matches.
    private static func existingDatabases(
        in transaction: LMDBTransaction, meta: MDB_dbi, roots: Set<String>, path: String
    ) throws -> LMDBDatabases {
        func database(_ name: String) throws -> MDB_dbi {
            guard let database = try transaction.openDatabase(name, create: false) else {
                throw StoreError(code: .corrupt, message: "The LMDB store at '\(path)' has no database '\(name)'.")
            }
            return database
        }
        var records: [String: MDB_dbi] = [:]
        for root in roots { records[root] = try database(LMDBLayout.recordDatabase(root: root)) }
        return LMDBDatabases(
            meta: meta, counters: try database(LMDBLayout.counterDatabase),
            toMany: try database(LMDBLayout.toManyDatabase), index: try database(LMDBLayout.indexDatabase),
            records: records)
    }

    private static func create(in transaction: LMDBTransaction, roots: Set<String>) throws -> LMDBDatabases {
        func database(_ name: String) throws -> MDB_dbi { try createDatabase(name, in: transaction) }
        var records: [String: MDB_dbi] = [:]
        for root in roots { records[root] = try database(LMDBLayout.recordDatabase(root: root)) }
        return LMDBDatabases(
            meta: try database(LMDBLayout.metaDatabase), counters: try database(LMDBLayout.counterDatabase),
            toMany: try database(LMDBLayout.toManyDatabase), index: try database(LMDBLayout.indexDatabase),
            records: records)
    }

    /// Opens the database `name`, creating it when missing.
    private static func createDatabase(_ name: String, in transaction: LMDBTransaction) throws -> MDB_dbi {
        guard let database = try transaction.openDatabase(name, create: true) else {
            throw LMDBError(code: MDB_NOTFOUND, call: "mdb_dbi_open(\(name))")
        }
        return database
    }

    /// The meta database of the store at `path`.
    static func metaDatabase(in transaction: LMDBTransaction, path: String) throws -> MDB_dbi {
        guard let meta = try transaction.openDatabase(LMDBLayout.metaDatabase, create: false) else {
            throw StoreError(
                code: .corrupt,
                message: "The LMDB file at '\(path)' is not a Strata store: it has no '\(LMDBLayout.metaDatabase)' "
                    + "database.")
        }
        return meta
    }

    /// The store's layout version; throws unless it is one this build reads.
    @discardableResult
    static func checkFormat(in transaction: LMDBTransaction, _ meta: MDB_dbi, path: String) throws -> UInt32 {
        guard let bytes = try transaction.get(meta, LMDBLayout.formatKey), bytes.count == 4 else {
            throw StoreError(code: .corrupt, message: "The LMDB store at '\(path)' has no format version.")
        }
        let version = bytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard version <= LMDBLayout.formatVersion, version > 0 else {
            throw StoreError(
                code: .unsupported,
                message: "The LMDB store at '\(path)' was written in version \(version) of Strata's LMDB layout; "
                    + "this build reads versions up to \(LMDBLayout.formatVersion). Use a newer Strata.")
        }
        return version
    }

    /// Throws `corrupt` for a key of `meta` that no layout writes: a damaged key, left alone,
    /// would read as one missing and have the store write what it seems to lack.
    static func checkMetaKeys(in transaction: LMDBTransaction, _ meta: MDB_dbi, path: String) throws {
        try transaction.scan(meta, from: []) { key, _ in
            guard LMDBLayout.metaKeys.contains(Array(key)) else {
                let name =
                    String(validating: key, as: UTF8.self).map { "'\($0)'" }
                    ?? "0x" + key.map { String(format: "%02x", $0) }.joined()
                throw StoreError(
                    code: .corrupt,
                    message: "The LMDB store at '\(path)' has an unknown key \(name) in its meta database.")
            }
            return true
        }
    }

    /// The metadata record in `meta`.
    static func readMetadata(in transaction: LMDBTransaction, _ meta: MDB_dbi, path: String) throws -> StoreMetadata {
        guard let bytes = try transaction.get(meta, LMDBLayout.metadataKey) else {
            throw StoreError(code: .corrupt, message: "The LMDB store at '\(path)' has no metadata record.")
        }
        return try BinaryRecord.decode(bytes, source: "The metadata of '\(path)'") { try $0.readMetadata() }
    }

    /// Writes `metadata` into `meta`, inside the caller's transaction.
    static func writeMetadata(_ metadata: StoreMetadata, in transaction: LMDBTransaction, _ meta: MDB_dbi) throws {
        try transaction.put(meta, LMDBLayout.metadataKey, BinaryRecord.encode { $0.write(metadata: metadata) })
    }

    /// `value` as 4 big-endian bytes.
    static func bigEndian(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian) { Array($0) } }
}
