import Foundation
import Logging
import Strata

/// Opening, creating and inspecting the file of an SQLite store.
enum SQLiteStoreFile {
    /// The tables every Core Data store has, besides its entity tables.
    static let systemTables: Set<String> = ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"]

    /// Opens the store `request` asks for, creating its file and schema when there is no file.
    static func open(_ request: StoreOpenRequest, options typed: SQLiteStoreOptions? = nil) throws -> SQLiteStore {
        guard let url = request.url else {
            throw StoreError(code: .io, message: "An SQLite store needs a file URL.")
        }
        try request.model.freeze()
        let path = url.path
        let entityNames = Set(request.model.entityNames(inConfiguration: request.configurationName))
        var layout = SQLiteSchema(schema: request.model.schema, entityNames: entityNames)
        try layout.checkIdentifiers(storeName: "The SQLite store at '\(url.path)'")
        let settings = try SQLiteStoreSettings(typed, settings: request.options, logger: request.logger)
        func fail(_ error: SQLiteError, _ action: String) -> StoreError {
            storeError(error, path: path, doing: action)
        }
        let size = fileSize(atPath: path)
        let isNew = size == nil
        if isNew && request.options.isReadOnly {
            throw StoreError(code: .io, message: "There is no SQLite store at '\(path)' to open read-only.")
        }
        try StoreSideFiles.checkNotLinked(
            sideFileSuffixes.map { path + $0 }, storeName: "the SQLite store at '\(path)'")
        let writer: SQLiteConnection
        let metadata: StoreMetadata
        let rTreeIndexes: [SQLiteSchema.RTreeIndex]
        var journal = SQLiteStore.Journal.wal
        do {
            writer = try connection(path: path, readOnly: request.options.isReadOnly, settings: settings, create: true)
            let created = StoreMetadata(
                storeType: SQLiteStore.storeTypeName,
                storeIdentifier: request.identifierForNewStore, model: request.model,
                configuration: request.configurationName, userInfo: request.userInfoForNewStore)
            if try hasNoTables(writer), request.options.isReadOnly || (size ?? 0) > 0 && !holdsDatabaseHeader(path) {
                throw StoreError(
                    code: .corrupt, message: "The file at '\(path)' is not an SQLite store: it holds no tables.")
            }
            // An empty database (a new file, or one whose maker stopped before its tables) gets
            // them, unless another process makes them first.
            if try !request.options.isReadOnly
                && create(
                    layout, metadata: created, model: request.model.schema, on: writer,
                    waitingUpTo: settings.busyTimeoutMilliseconds)
            {
                metadata = created
                for reason in layout.skippedFetchIndexes {
                    request.logger.notice(
                        "Fetch index skipped", metadata: ["store.url": "\(path)", "reason": "\(reason)"])
                }
            } else {
                guard let stored = try readMetadata(on: writer, path: path) else {
                    throw StoreError(
                        code: .corrupt,
                        message: "The SQLite file at '\(path)' is not a store: it has no Z_METADATA table.")
                }
                metadata = stored
                try checkCompatible(request, metadata: metadata, layout: layout, on: writer, path: path)
                if !request.options.isReadOnly { try addMissingReferenceTables(of: layout, on: writer) }
                // Opening never writes to the file: a store in another journal mode moves to WAL
                // with its first save.
                let mode = try writer.cachedStatement("PRAGMA journal_mode").rows([]) { $0.value(at: 0) }.first
                if mode != .text("wal") { journal = request.options.isReadOnly ? .other : .switchesToWALOnSave }
            }
            // An R-tree is searched only when the file's table is the one the model describes: a
            // file keeps the indexes it was made with.
            let tables = try writer.statement("SELECT sql FROM sqlite_master WHERE type = 'table'").rows { row in
                row.value(at: 0)
            }
            rTreeIndexes = layout.rTreeIndexes.filter { index in
                index.createStatements.first.map { tables.contains(.text($0)) } ?? false
            }
            let triggers = try writer.statement(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'Z\\_DA\\_%' ESCAPE '\\'"
            ).rows { row -> String? in
                if case .text(let name) = row.value(at: 0) { return name }
                return nil
            }.compactMap { $0 }
            layout.noteDerivationTriggers(triggers, model: request.model.schema)
        } catch let error as SQLiteError {
            throw fail(error, "opening")
        }
        let pool = SQLiteConnectionPool(
            writer: writer, maximumReaders: settings.poolSize,
            openWriter: { [readOnly = request.options.isReadOnly] in
                try connection(path: path, readOnly: readOnly, settings: settings, create: false)
            },
            openReader: { try connection(path: path, readOnly: true, settings: settings, create: false) },
            waited: request.connectionWaitRecorder(storeType: SQLiteStore.storeTypeName))
        let store = SQLiteStore(
            request: request, path: path, layout: layout, rTreeIndexes: rTreeIndexes, pool: pool, metadata: metadata,
            journal: journal, settings: settings)
        // Housekeeping: a file another connection keeps locked past the busy timeout is swept on
        // a later opening; the orphans it leaves take space and are never read.
        _ = try? store.removeOrphanedExternalData()
        return store
    }

    /// A connection to `path` with Strata's functions and settings.
    static func connection(
        path: String, readOnly: Bool, settings: SQLiteStoreSettings, create: Bool
    ) throws(SQLiteError) -> SQLiteConnection {
        let mode: SQLiteConnection.Mode = readOnly ? .readOnly : create ? .readWriteCreate : .readWrite
        let connection = try SQLiteConnection(
            path: path, mode: mode, busyTimeoutMilliseconds: settings.busyTimeoutMilliseconds)
        try SQLiteStrataFunctions.define(on: connection)
        settings.trace.install(on: connection)
        if !readOnly { try connection.execute(script: "PRAGMA synchronous = FULL") }
        return connection
    }

    /// The metadata of the store at `path`; `nil` when there is no file.
    static func readMetadata(at path: String) throws -> StoreMetadata? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        try StoreSideFiles.checkNotLinked(
            sideFileSuffixes.map { path + $0 }, storeName: "the SQLite store at '\(path)'")
        do {
            let connection = try SQLiteConnection(path: path, mode: .readOnly)
            guard let metadata = try readMetadata(on: connection, path: path) else {
                throw StoreError(
                    code: .corrupt, message: "The SQLite file at '\(path)' is not a store: it has no Z_METADATA table.")
            }
            return metadata
        } catch let error as SQLiteError {
            throw storeError(error, path: path, doing: "reading its metadata")
        }
    }

    /// Replaces the metadata of the store at `path` in one transaction.
    static func writeMetadata(_ metadata: StoreMetadata, at path: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError(
                code: .unknownObject, message: "There is no SQLite store at '\(path)' to write metadata to.")
        }
        do {
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            try connection.transaction {
                guard try readMetadata(on: connection, path: path) != nil else {
                    throw StoreError(
                        code: .corrupt,
                        message: "The SQLite file at '\(path)' is not a store: it has no Z_METADATA table.")
                }
                try writeMetadata(metadata, on: connection)
            }
        } catch let error as SQLiteError {
            throw storeError(error, path: path, doing: "writing its metadata")
        }
    }

    /// Writes `metadata` into `Z_METADATA` on `connection`, inside the caller's transaction: the
    /// number of the last save across stores into its own table (``SQLiteStripedSaveNumber``),
    /// and the rest as a property list, unless it is `stored`'s, the metadata the file holds.
    static func writeMetadata(
        _ metadata: StoreMetadata, on connection: SQLiteConnection, replacing stored: StoreMetadata? = nil
    ) throws {
        let (listed, number) = SQLiteStripedSaveNumber.split(metadata)
        if number == nil || stored.map({ SQLiteStripedSaveNumber.split($0).listed }) != listed {
            let plist = try SQLiteMetadataPlist.encode(listed)
            try connection.cachedStatement(
                "INSERT OR REPLACE INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)"
            )
            .execute([.text(metadata.storeIdentifier), .blob(Array(plist))])
        }
        try SQLiteStripedSaveNumber.write(number, on: connection)
    }

    /// `error` as a `StoreError` naming the file at `path`.
    static func storeError(_ error: SQLiteError, path: String, doing action: String) -> StoreError {
        let place = "The SQLite store at '\(path)'"
        if error.isBusy {
            return StoreError(
                code: .inUse, message: "\(place) is locked by another connection (\(action)): \(error).",
                underlying: error)
        }
        if error.isDatabaseMoved {
            return StoreError(
                code: .inUse,
                message: "\(place) was replaced or removed by another program while the store was open (\(action)); "
                    + "the save would go to a file no one opens again. Remove the store and open the file again.",
                underlying: error)
        }
        if error.isCorruption {
            return StoreError(
                code: .corrupt, message: "\(place) is not a readable SQLite database (\(action)): \(error).",
                underlying: error)
        }
        if error.code == 8 || error.code == 14 {  // SQLITE_READONLY, SQLITE_CANTOPEN
            return StoreError(
                code: error.code == 8 ? .readOnly : .io,
                message: "\(place) cannot be written or opened (\(action)): \(error).",
                underlying: error)
        }
        return StoreError(code: .io, message: "\(place) failed (\(action)): \(error).", underlying: error)
    }

    /// Moves the empty database of `connection` to WAL; `false`, moving nothing, when another
    /// connection made the store's tables meanwhile. The move needs the database to itself,
    /// and SQLite refuses it at once, without waiting, while another connection that is making
    /// the tables holds the write lock: the move is tried again until the busy timeout.
    private static func switchToWAL(_ connection: SQLiteConnection, waitingUpTo milliseconds: Int32) throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        while true {
            let refusal: SQLiteError
            do {
                try connection.execute(script: "PRAGMA journal_mode = WAL")
                return true
            } catch {
                refusal = error
            }
            guard refusal.isBusy, ContinuousClock.now < deadline else { throw refusal }
            usleep(1_000)
            guard try hasNoTables(connection) else { return false }
        }
    }

    private static func hasNoTables(_ connection: SQLiteConnection) throws -> Bool {
        let counts = try connection.statement("SELECT count(*) FROM sqlite_master").rows { $0.value(at: 0) }
        return counts.first == .integer(0)
    }

    static func readMetadata(on connection: SQLiteConnection, path: String) throws -> StoreMetadata? {
        let tables = try connection.statement(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'Z_METADATA'"
        )
        .rows { $0.value(at: 0) }
        guard !tables.isEmpty else { return nil }
        let rows = try connection.statement("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")
            .rows { ($0.value(at: 0), $0.value(at: 1)) }
        guard let (uuid, plist) = rows.first, case .text(let identifier) = uuid, case .blob(let bytes) = plist else {
            throw StoreError(
                code: .corrupt, message: "The SQLite store at '\(path)' has no metadata row in Z_METADATA.")
        }
        var metadata = try SQLiteMetadataPlist.decode(Data(bytes), uuid: identifier, file: path)
        if let number = try SQLiteStripedSaveNumber.read(on: connection, path: path) {
            metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] = .integer64(number)
        }
        return metadata
    }

    /// Creates the schema of a new store, its `Z_PRIMARYKEY` rows and its metadata in one transaction.
    /// Whether the file at `path` starts with SQLite's whole 100-byte header: an empty database
    /// SQLite made, not a file cut short.
    private static func holdsDatabaseHeader(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: 100)) ?? Data()
        return header.count == 100 && header.starts(with: Array("SQLite format 3\0".utf8))
    }

    /// Makes the store's tables in the empty database of `connection`, in one write
    /// transaction; `false`, making nothing, when the database has tables, also when another
    /// process made them while this one waited for the write lock.
    private static func create(
        _ layout: SQLiteSchema, metadata: StoreMetadata, model: ModelSchema, on connection: SQLiteConnection,
        waitingUpTo milliseconds: Int32
    ) throws -> Bool {
        guard try hasNoTables(connection) else { return false }
        try connection.execute(script: "PRAGMA auto_vacuum = 2")
        guard try switchToWAL(connection, waitingUpTo: milliseconds) else { return false }
        return try connection.transaction {
            guard try hasNoTables(connection) else { return false }
            let statements =
                SQLiteSchema.systemTableStatements + layout.createStatements
                + layout.derivationTriggerStatements(model: model)
            for statement in statements {
                try connection.execute(script: statement)
            }
            let insert = try connection.statement(
                "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)")
            for (name, number) in layout.entityNumbers.sorted(by: { $0.value < $1.value }) {
                let parent = layout.superentities[name].flatMap { layout.entityNumbers[$0] } ?? 0
                try insert.execute([.integer(number), .text(name), .integer(parent)])
            }
            try writeMetadata(metadata, on: connection)
            return true
        }
    }

    /// Adds the reference tables of `layout` the file lacks, with their indexes: a file made
    /// before Strata kept references to other stores' objects has a model's relationships
    /// leading out of its configuration, but no table for their members (none were saved).
    private static func addMissingReferenceTables(of layout: SQLiteSchema, on connection: SQLiteConnection) throws {
        guard !layout.referenceTables.isEmpty else { return }
        let existing = try connection.statement("SELECT name FROM sqlite_master WHERE type = 'table'").rows {
            $0.value(at: 0)
        }
        let missing = layout.referenceTables.filter { !existing.contains(.text($0.name)) }
        guard !missing.isEmpty else { return }
        let names = Set(missing.map(\.name))
        try connection.transaction {
            for table in missing { try connection.execute(script: SQLiteSchema.createStatement(of: table)) }
            for index in layout.indexes where names.contains(index.table) {
                try connection.execute(script: index.createStatement)
            }
        }
    }

    /// Throws `StoreError/Code/incompatibleModel` when the store was written with another model,
    /// or numbers its entities differently from the layout.
    private static func checkCompatible(
        _ request: StoreOpenRequest, metadata: StoreMetadata, layout: SQLiteSchema, on connection: SQLiteConnection,
        path: String
    ) throws {
        try request.model.checkCompatible(
            configuration: request.configurationName, metadata: metadata, place: "'\(path)'")
        if let problem = try numberingProblem(of: layout, model: request.model.schema, on: connection) {
            throw StoreError(code: .incompatibleModel, message: "'\(path)' \(problem).")
        }
    }

    /// How the file's `Z_PRIMARYKEY` numbers an entity differently from `layout`; `nil` when
    /// it numbers every entity as the layout does.
    static func numberingProblem(of layout: SQLiteSchema, model: ModelSchema, on connection: SQLiteConnection)
        throws -> String?
    {
        let rows = try connection.statement("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
            .rows { ($0.value(at: 0), $0.value(at: 1)) }
        var numbersInFile: [String: Int64] = [:]
        var namesInFile: [Int64: String] = [:]
        for case (.integer(let number), .text(let name)) in rows {
            numbersInFile[name] = number
            namesInFile[number] = name
        }
        for (name, number) in layout.entityNumbers.sorted(by: { $0.value < $1.value }) {
            // The row of the entity's number names it, or its name before a rename (Core Data
            // keeps that name after migrating, so it may name no entity of the model at all).
            let renamed = model.entitiesByName[name]?.description.renamingIdentifier
            let named = namesInFile[number]
            if named == name || (named != nil && named == renamed) { continue }
            if let named, layout.entityNumbers[named] == nil { continue }
            let stored = numbersInFile[name] ?? renamed.flatMap { numbersInFile[$0] }
            return "numbers entity '\(name)' \(stored.map(String.init) ?? "nowhere") in Z_PRIMARYKEY, but its "
                + "model gives it \(number)"
        }
        return nil
    }
}

/// The size of the file (or folder) at `path`; `nil` when there is none. One `stat` call, where
/// `FileManager` built a dictionary of every attribute.
private func fileSize(atPath path: String) -> Int? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return Int(info.st_size)
}

/// The store's settings: the typed options, else the string settings, else the defaults,
/// clamped to sensible values.
struct SQLiteStoreSettings: Sendable {
    /// The most reader connections.
    let poolSize: Int
    /// How long to wait for another connection's lock.
    let busyTimeoutMilliseconds: Int32
    /// What the store's connections log of their statements.
    let trace: SQLiteDebugTrace
    /// How long a query generation's read view may hold its read transaction.
    let maximumGenerationAge: Duration

    /// Twice the processors, from 2 to 16: worked out once, as asking costs reading files.
    private static let defaultPoolSize = min(max(2 * ProcessInfo.processInfo.activeProcessorCount, 2), 16)

    /// - Throws: `StoreError` with code `StoreError/Code/invalidOption` for a string
    ///   setting that is not a whole number.
    init(
        _ typed: SQLiteStoreOptions?, settings options: StoreOptions,
        logger: Logger = PersistentStoreCoordinator.silentLogger
    ) throws {
        let name = SQLiteStore.storeTypeName
        let pool = try typed?.poolSize ?? options.integer("poolSize", of: name) ?? Self.defaultPoolSize
        poolSize = min(max(pool, 1), 64)
        let timeout =
            try typed?.busyTimeout.map { Int(min($0, .seconds(600)) / .milliseconds(1)) }
            ?? options.integer("busyTimeout", of: name)
            ?? 10_000
        busyTimeoutMilliseconds = Int32(min(max(timeout, 0), 600_000))
        let slow =
            try typed?.slowStatementThreshold
            ?? options.integer("slowStatementThreshold", of: name).map { .milliseconds($0) } ?? .milliseconds(500)
        trace = SQLiteDebugTrace(logger: logger, slowStatementThreshold: slow)
        let age =
            try typed?.maximumGenerationAge
            ?? options.integer("maximumGenerationAge", of: name).map { .milliseconds($0) } ?? .seconds(900)
        maximumGenerationAge = min(max(age, .seconds(1)), .seconds(86_400))
    }
}
