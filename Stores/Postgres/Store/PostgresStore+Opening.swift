import Foundation
import Strata

extension PostgresStore {
    /// Opens the store `request` asks for, creating its tables when its schema holds none. A
    /// schema holding another model's store is `incompatibleModel`; one of a newer layout
    /// version `unsupported`; a read-only opening of a missing store `io`.
    static func open(_ request: StoreOpenRequest) throws -> PostgresStore {
        guard let url = request.url else {
            throw StoreError(code: .io, message: "A PostgreSQL store needs a postgresql:// URL.")
        }
        try request.model.freeze()
        let location = try PostgresLocation(url: url)
        let settings = try PostgresStoreSettings(request.options)
        let entityCount = request.model.schema.entitiesByName.count
        guard entityCount < Int(Int16.max) else {
            throw StoreError(
                code: .unsupported,
                message: "The \(storeTypeName) store numbers entities in a smallint column; the model has "
                    + "\(entityCount) entities, more than \(Int16.max - 1).")
        }
        let trace = PostgresStatementTrace(
            logger: request.logger, slowStatementThreshold: settings.slowStatementThreshold,
            storeName: location.displayName)
        let pool = PostgresConnectionPool(
            location: location, size: settings.maxConnections, trace: trace,
            waited: request.connectionWaitRecorder(storeType: storeTypeName))
        let layout = PostgresLayout(
            model: request.model.schema,
            entityNames: Set(request.model.entityNames(inConfiguration: request.configurationName)),
            schemaName: location.schema)
        let fetchIndexes = layout.fetchIndexes(model: request.model.schema)
        let (metadata, spatialIndexes) = try pool.withConnection { connection in
            try connection.transaction {
                try PostgresStoreDatabase.lockSchema(location.schema, on: connection)
                let (metadata, created) = try openOrCreate(request, location: location, layout: layout, on: connection)
                if created {
                    for reason in fetchIndexes.skipped {
                        request.logger.notice(
                            "Fetch index skipped",
                            metadata: ["store.url": "\(location.displayName)", "reason": "\(reason)"])
                    }
                }
                if request.options.tracksPersistentHistory && !request.options.isReadOnly {
                    try PostgresHistoryTables(schemaName: location.schema).create(on: connection)
                }
                // A store keeps the indexes it was made with: a spatial index is searched only
                // when the schema has it.
                let indexNames = try PostgresStoreDatabase.indexNames(in: location, on: connection)
                return (metadata, fetchIndexes.spatial.filter { indexNames.contains($0.name) })
            }
        }
        return PostgresStore(
            request: request, location: location, pool: pool, layout: layout, metadata: metadata, settings: settings,
            spatialIndexes: spatialIndexes)
    }

    /// The metadata of the store in `location`'s schema, checked against the model, and whether
    /// the store was created: it is when the schema holds none.
    private static func openOrCreate(
        _ request: StoreOpenRequest, location: PostgresLocation, layout: PostgresLayout,
        on connection: PostgresConnection
    ) throws -> (metadata: StoreMetadata, created: Bool) {
        if try PostgresStoreDatabase.storeExists(in: location, on: connection) {
            let (_, _, metadata) = try PostgresStoreDatabase.readMetadata(in: location, on: connection)
            try request.model.checkCompatible(
                configuration: request.configurationName, metadata: metadata,
                place: "The PostgreSQL store at \(location.displayName)")
            if !request.options.isReadOnly {
                try PostgresStoreDatabase.addReferenceStorage(of: layout, in: location, on: connection)
            }
            return (metadata, false)
        }
        guard !request.options.isReadOnly else {
            throw StoreError(
                code: .io, message: "There is no PostgreSQL store at \(location.displayName) to open read-only."
            )
        }
        let metadata = StoreMetadata(
            storeType: storeTypeName, storeIdentifier: request.identifierForNewStore, model: request.model,
            configuration: request.configurationName, userInfo: request.userInfoForNewStore)
        try PostgresStoreDatabase.create(
            layout, model: request.model.schema, metadata: metadata, on: connection)
        return (metadata, true)
    }
}
