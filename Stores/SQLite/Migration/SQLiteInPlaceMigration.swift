import Foundation
import Logging
import Strata

/// Migrates an SQLite store's file in place, as Core Data's lightweight migration does: the WAL
/// checkpointed first, then every step's schema change (``SQLiteSchemaChange``), the
/// `Z_PRIMARYKEY` rows and the metadata in one transaction. Objects keep their primary keys,
/// and so their IDs.
///
/// A step whose mapping cannot run in place (see `InPlaceMapping`), a file with triggers
/// (Core Data's derived attributes, which Strata does not rewrite), one that numbers its
/// entities otherwise than the source model's layout, one whose persistent history
/// (`ACHANGE`) names entities by numbers a step changes, or a step after which an attribute keeps
/// its values otherwise (as external binary data or not) is declined before anything is
/// written; the migration then copies the store.
enum SQLiteInPlaceMigration {
    /// Whether an attribute of `step`'s destination model stores externally while the source's
    /// attribute of that name does not (a new one included), or the other way round: its column
    /// would need rewriting, which a copy does.
    private static func changesExternalStorage(_ step: InPlaceMigrationRequest.Step) -> Bool {
        let source = step.sourceModel.schema
        return step.destinationModel.schema.entities.contains { entity in
            entity.attributes.contains { attribute in
                let before = source.entitiesByName[entity.name]?.attributesByName[attribute.name]
                return attribute.storesExternally != (before?.storesExternally ?? false)
            }
        }
    }

    static func migrate(_ request: InPlaceMigrationRequest, settings: SQLiteStoreSettings) throws -> Bool {
        let path = request.url.path
        var changes: [SQLiteSchemaChange] = []
        var conversions: [SQLiteSchemaChange.Conversion] = []
        if request.steps.contains(where: Self.changesExternalStorage) {
            decline(
                request,
                because: "an attribute keeps its values as external binary data in one version and not the other")
            return false
        }
        do {
            for step in request.steps {
                let change = try schemaChange(step, configuration: request.configurationName, from: conversions.count)
                conversions += change.conversions
                changes.append(change)
            }
        } catch {
            decline(request, because: error.description)
            return false
        }
        do {
            let connection = try SQLiteConnection(
                path: path, mode: .readWrite, busyTimeoutMilliseconds: settings.busyTimeoutMilliseconds)
            let triggers = try connection.statement("SELECT name FROM sqlite_master WHERE type = 'trigger'")
                .rows { $0.value(at: 0) }
            guard triggers.isEmpty else {
                decline(request, because: "the file has triggers (derived attributes or R-tree indexes)")
                return false
            }
            let hasHistory = try !connection.statement("SELECT 1 FROM sqlite_master WHERE name = 'ACHANGE'")
                .rows { $0.value(at: 0) }.isEmpty
            if hasHistory, changes.contains(where: \.renumbersEntities) {
                decline(request, because: "the file's persistent history names entities by numbers that change")
                return false
            }
            if let first = request.steps.first, let layout = changes.first?.source,
                let problem = try SQLiteStoreFile.numberingProblem(
                    of: layout, model: first.sourceModel.schema, on: connection)
            {
                decline(request, because: "the file \(problem)")
                return false
            }
            try connection.execute(script: "PRAGMA wal_checkpoint(TRUNCATE)")
            let failure = Locked<MigrationError?>(nil)
            try connection.defineFunction("strata_migration_convert", argumentCount: 3) { arguments in
                convert(arguments, by: conversions, failure: failure)
            }
            var run = Run(
                connection: connection, path: path, failure: failure, progress: request.progress,
                totalObjects: try objectCount(of: changes.first?.source, on: connection))
            try run.checkCancellation()
            try connection.transaction {
                for change in changes { try run.apply(change) }
                guard let stored = try SQLiteStoreFile.readMetadata(on: connection, path: path),
                    let model = request.steps.last?.destinationModel
                else {
                    throw StoreError(
                        code: .corrupt, message: "The SQLite file at '\(path)' is not a store: it has no metadata.")
                }
                try SQLiteStoreFile.writeMetadata(
                    StoreMetadata(
                        storeType: SQLiteStore.storeTypeName, storeIdentifier: stored.storeIdentifier, model: model,
                        configuration: request.configurationName, userInfo: stored.userInfo),
                    on: connection)
                // Core Data's compiled model of the old version would be wrong now, and Strata
                // cannot write one of the new.
                if try run.tableExists("Z_MODELCACHE") { try connection.execute(script: "DELETE FROM Z_MODELCACHE") }
            }
            request.progress?(MigrationProgress(completedObjects: run.totalObjects, totalObjects: run.totalObjects))
        } catch let error as SQLiteError {
            throw SQLiteStoreFile.storeError(error, path: path, doing: "migrating it in place")
        }
        return true
    }

    private static func schemaChange(
        _ step: InPlaceMigrationRequest.Step, configuration: String?, from firstConversion: Int
    ) throws(InPlaceMapping.Declined) -> SQLiteSchemaChange {
        let sourceNames = Set(step.sourceModel.entityNames(inConfiguration: configuration))
        let destinationNames = Set(step.destinationModel.entityNames(inConfiguration: configuration))
        let source = step.sourceModel.schema
        let destination = step.destinationModel.schema
        let mapping = try InPlaceMapping(step, configuration: configuration)
        let from = SQLiteSchema(schema: source, entityNames: sourceNames)
        let to = SQLiteSchema(schema: destination, entityNames: destinationNames)
        if let name = from.firstInvalidIdentifier ?? to.firstInvalidIdentifier {
            throw InPlaceMapping.Declined(description: "'\(name)' would be written into SQL but is not an identifier")
        }
        return try SQLiteSchemaChange(
            from: from, to: to, mapping: mapping,
            sourceModel: source, destinationModel: destination, firstConversion: firstConversion)
    }

    private static func decline(_ request: InPlaceMigrationRequest, because reason: String) {
        request.logger.notice(
            "Migrating by copy: the store cannot be migrated in place",
            metadata: ["store.url": "\(request.url.path)", "reason": "\(reason)"])
    }

    /// The body of `strata_migration_convert(value, conversion, Z_PK)`: the value converted as
    /// the migration's copy would; `NULL`, with the failure recorded, when it does not fit.
    private static func convert(
        _ arguments: SQLiteFunctionArguments, by conversions: [SQLiteSchemaChange.Conversion],
        failure: Locked<MigrationError?>
    ) -> SQLiteValue {
        guard arguments.count == 3, case .integer(let index) = arguments[1],
            conversions.indices.contains(Int(index))
        else { return .null }
        let conversion = conversions[Int(index)]
        if let converted = SQLiteValueCodec.decode(arguments[0], as: conversion.from)?.converted(to: conversion.to) {
            return SQLiteValueCodec.encode(converted)
        }
        failure.withLock { recorded in
            guard recorded == nil else { return }
            recorded = MigrationError(
                code: .invalidValue,
                message: "'\(conversion.entity).\(conversion.attribute)' of the object with primary key "
                    + "\(arguments[2]): \(arguments[0]) cannot be converted from \(conversion.from.modelFileName) to "
                    + "\(conversion.to.modelFileName).",
                entityName: conversion.entity, propertyName: conversion.attribute)
        }
        return .null
    }

    /// The rows of the entity tables of `layout`: the objects the migration moves.
    private static func objectCount(of layout: SQLiteSchema?, on connection: SQLiteConnection) throws -> Int {
        var count = 0
        for table in layout?.entityTables ?? [] {
            let rows = try connection.statement("SELECT count(*) FROM \(table.name)").rows { $0.value(at: 0) }
            if case .integer(let rowCount)? = rows.first { count += Int(rowCount) }
        }
        return count
    }
}
