import Foundation
import Logging
import Strata

/// Migrates a PostgreSQL store in place, as Core Data's lightweight migration migrates an
/// SQLite file: every step's ``PostgresSchemaChange`` (mostly `ALTER TABLE`), the checks of
/// non-optional properties and the new metadata in one transaction holding the store's lock.
/// PostgreSQL's DDL is transactional, so other sessions see the old store or the new one, and
/// a failure leaves the old one. Objects keep their primary keys, and so their IDs.
///
/// A step whose mapping cannot run in place (see `InPlaceMapping`) or needs values computed
/// row by row (``PostgresSchemaChange``), and a store with tables its recorded layout does not
/// have, are declined before anything is written; the migration then copies the store.
enum PostgresInPlaceMigration {
    static func migrate(_ request: InPlaceMigrationRequest) throws -> Bool {
        let location = try PostgresLocation(url: request.url)
        var changes: [PostgresSchemaChange] = []
        do {
            for step in request.steps {
                changes.append(try schemaChange(step, configuration: request.configurationName, in: location.schema))
            }
        } catch {
            decline(request, because: error.description)
            return false
        }
        guard let first = changes.first, let model = request.steps.last?.destinationModel else { return false }
        do {
            return try run(changes, first: first, model: model, request: request)
        } catch let error as StoreError {
            // A statement the server refused rolled the whole change back; the copy, which
            // reads the store and writes a new one, may still migrate it.
            guard let refusal = error.underlying as? PostgresError, !refusal.isConnectionFailure else { throw error }
            request.logger.warning(
                "PostgreSQL refused a statement of a migration in place",
                metadata: ["store.url": "\(request.url.nameInMessages)", "error": "\(refusal)"])
            decline(request, because: "PostgreSQL refused a statement: \(refusal)")
            return false
        }
    }

    private static func run(
        _ changes: [PostgresSchemaChange], first: PostgresSchemaChange, model: ManagedObjectModel,
        request: InPlaceMigrationRequest
    ) throws -> Bool {
        try PostgresStoreDatabase.withLockedConnection(to: request.url) { location, connection in
            let (_, tables, stored) = try PostgresStoreDatabase.readMetadata(in: location, on: connection)
            guard Set(tables) == Set(first.source.tableNames) else {
                decline(request, because: "the store has tables other than its recorded model lays out")
                return false
            }
            let run = Run(connection: connection, location: location)
            for change in changes {
                try run.checkCancellation()
                try run.apply(change)
            }
            try PostgresStoreDatabase.writeMetadata(
                StoreMetadata(
                    storeType: PostgresStore.storeTypeName, storeIdentifier: stored.storeIdentifier, model: model,
                    configuration: request.configurationName, userInfo: stored.userInfo),
                in: location, on: connection)
            try connection.execute(
                "UPDATE \(first.source.qualified(PostgresLayout.metadataTable)) SET tables = $1 WHERE id = 1",
                [.bytes(Array(try JSONEncoder().encode(changes[changes.count - 1].destination.tableNames)))])
            let objects = try run.objectCount(in: changes[changes.count - 1].destination)
            request.progress?(MigrationProgress(completedObjects: objects, totalObjects: objects))
            return true
        }
    }

    private static func schemaChange(
        _ step: InPlaceMigrationRequest.Step, configuration: String?, in schema: String
    ) throws(InPlaceMapping.Declined) -> PostgresSchemaChange {
        let (source, destination) = (step.sourceModel, step.destinationModel)
        return try PostgresSchemaChange(
            from: PostgresLayout(
                model: source.schema, entityNames: Set(source.entityNames(inConfiguration: configuration)),
                schemaName: schema),
            to: PostgresLayout(
                model: destination.schema, entityNames: Set(destination.entityNames(inConfiguration: configuration)),
                schemaName: schema),
            mapping: try InPlaceMapping(step, configuration: configuration), sourceModel: source.schema,
            destinationModel: destination.schema)
    }

    private static func decline(_ request: InPlaceMigrationRequest, because reason: String) {
        request.logger.notice(
            "Migrating by copy: the store cannot be migrated in place",
            metadata: ["store.url": "\(request.url.nameInMessages)", "reason": "\(reason)"])
    }

    /// Runs schema changes on one connection, inside its transaction.
    struct Run {
        let connection: PostgresConnection
        let location: PostgresLocation

        /// Runs the change's operations, then checks that every object of a non-optional
        /// property the change may leave empty has a value.
        func apply(_ change: PostgresSchemaChange) throws {
            for operation in change.operations {
                switch operation {
                case .sql(let statement):
                    try connection.execute(statement)
                case .dropIndexes(let table):
                    try dropIndexes(of: change.destination.qualified(table))
                case .renamePrimaryKey(let table):
                    let name = PostgresIdentifier.clipped(table + "_pkey")
                    if let current = try primaryKey(of: change.destination.qualified(table)), current != name {
                        try connection.execute(
                            "ALTER INDEX \(change.destination.qualified(current)) RENAME TO "
                                + PostgresIdentifier.quoted(name))
                    }
                case .replacePrimaryKey(let table, let columns):
                    let qualified = change.destination.qualified(table)
                    if let current = try primaryKey(of: qualified) {
                        try connection.execute(
                            "ALTER TABLE \(qualified) DROP CONSTRAINT \(PostgresIdentifier.quoted(current))")
                    }
                    try connection.execute(
                        "ALTER TABLE \(qualified) ADD PRIMARY KEY "
                            + "(\(columns.map(PostgresIdentifier.quoted).joined(separator: ", ")))")
                }
            }
            for required in change.requiredColumns { try check(required, in: change.destination) }
        }

        /// The name of the primary key constraint of `table` (qualified), which is also its index's.
        private func primaryKey(of table: String) throws -> String? {
            let rows = try connection.execute(
                "SELECT conname::text FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'p'",
                [.text(table)])
            return rows.bytes(0, 0).map { String(decoding: $0, as: UTF8.self) }
        }

        /// Drops the unique constraints of `table` (qualified), then its indexes other than its
        /// primary key's.
        private func dropIndexes(of table: String) throws {
            let constraints = try connection.execute(
                "SELECT conname::text FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'u'",
                [.text(table)])
            for row in 0..<constraints.rowCount {
                guard let name = constraints.bytes(row, 0) else { continue }
                try connection.execute(
                    "ALTER TABLE \(table) DROP CONSTRAINT "
                        + PostgresIdentifier.quoted(String(decoding: name, as: UTF8.self)))
            }
            let indexes = try connection.execute(
                "SELECT c.relname::text FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                    + "WHERE i.indrelid = $1::regclass AND NOT i.indisprimary",
                [.text(table)])
            for row in 0..<indexes.rowCount {
                guard let name = indexes.bytes(row, 0) else { continue }
                try connection.execute(
                    "DROP INDEX "
                        + PostgresIdentifier.qualified(location.schema, String(decoding: name, as: UTF8.self)))
            }
        }

        /// Throws when an object of a non-optional property's entity has no value for it.
        private func check(_ required: PostgresSchemaChange.RequiredColumn, in layout: PostgresLayout) throws {
            let missing = try connection.execute(
                "SELECT _pk FROM \(layout.qualified(required.table)) WHERE _ent = $1 AND "
                    + "\(PostgresIdentifier.quoted(required.column)) IS NULL LIMIT 1",
                [.smallint(required.entityNumber)])
            guard let key = missing.int64(0, 0) else { return }
            throw MigrationError(
                code: .invalidValue,
                message: "The PostgreSQL store at \(location.displayName) cannot be migrated: "
                    + "'\(required.entity).\(required.property)' is not optional and has no default value, and the "
                    + "object with primary key \(key) gets no value for it.",
                entityName: required.entity, propertyName: required.property)
        }

        /// Throws ``MigrationError/Code/cancelled`` when the task running the migration is cancelled.
        func checkCancellation() throws {
            guard Task.isCancelled else { return }
            throw MigrationError(
                code: .cancelled,
                message: "The migration of the PostgreSQL store at \(location.displayName) was cancelled.")
        }

        /// The rows of the layout's entity tables: the objects the migration kept.
        func objectCount(in layout: PostgresLayout) throws -> Int {
            try layout.entityTables.reduce(0) { count, table in
                count
                    + Int(
                        try connection.execute("SELECT count(*) FROM \(layout.qualified(table.name))").int64(0, 0) ?? 0)
            }
        }
    }
}
