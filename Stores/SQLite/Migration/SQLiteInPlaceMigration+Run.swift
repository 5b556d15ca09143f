import Foundation
import Strata

extension SQLiteInPlaceMigration {
    /// Applies schema changes on one connection, inside its transaction, reporting each step's
    /// progress as a copy reports it: objects done of the store's objects.
    struct Run {
        let connection: SQLiteConnection
        let path: String
        /// The first value `strata_migration_convert` could not convert.
        let failure: Locked<MigrationError?>
        let progress: (@Sendable (MigrationProgress) -> Void)?
        let totalObjects: Int
        private var completedObjects = 0

        init(
            connection: SQLiteConnection, path: String, failure: Locked<MigrationError?>,
            progress: (@Sendable (MigrationProgress) -> Void)?, totalObjects: Int
        ) {
            self.connection = connection
            self.path = path
            self.failure = failure
            self.progress = progress
            self.totalObjects = totalObjects
        }

        /// Renames the changed tables aside, makes the new ones from them, drops the old ones,
        /// then brings the indexes and `Z_PRIMARYKEY` to the new layout.
        mutating func apply(_ change: SQLiteSchemaChange) throws {
            completedObjects = 0
            let stored = try storedEntities()
            for table in change.tablesAside {
                try connection.execute(
                    script: "ALTER TABLE \(table) RENAME TO \(SQLiteSchemaChange.asideName(of: table))")
            }
            for table in change.droppedTables { try connection.execute(script: "DROP TABLE \(table)") }
            for rebuild in change.rebuilds {
                try checkCancellation()
                try connection.execute(script: rebuild.create)
                guard let insert = rebuild.insert else { continue }
                try connection.execute(script: insert)
                if let error = failure.withLock({ $0 }) { throw error }
                completedObjects += Int(connection.changes)
                progress?(MigrationProgress(completedObjects: completedObjects, totalObjects: totalObjects))
            }
            for table in change.tablesAside {
                try connection.execute(script: "DROP TABLE \(SQLiteSchemaChange.asideName(of: table))")
            }
            for required in change.requiredColumns { try check(required) }
            try updateIndexes(change)
            try updatePrimaryKeys(change, stored: stored)
        }

        /// Throws ``MigrationError/Code/cancelled`` when the task running the migration is cancelled.
        func checkCancellation() throws {
            guard Task.isCancelled else { return }
            throw MigrationError(
                code: .cancelled, message: "The migration of the SQLite store at '\(path)' was cancelled.")
        }

        /// Whether the file has a table `name`.
        func tableExists(_ name: String) throws -> Bool {
            try !connection.statement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
                .rows([.text(name)]) { $0.value(at: 0) }.isEmpty
        }

        /// Throws when an object of a non-optional property's entity has no value for it.
        private func check(_ required: SQLiteSchemaChange.RequiredColumn) throws {
            let missing = try connection.statement(
                "SELECT Z_PK FROM \(required.table) WHERE Z_ENT = ? AND \(required.column) IS NULL LIMIT 1"
            ).rows([.integer(required.entityNumber)]) { $0.value(at: 0) }
            guard case .integer(let key)? = missing.first else { return }
            throw MigrationError(
                code: .invalidValue,
                message: "The SQLite store at '\(path)' cannot be migrated: '\(required.entity).\(required.property)' "
                    + "is not optional and has no default value, and the object with primary key \(key) gets no "
                    + "value for it.",
                entityName: required.entity, propertyName: required.property)
        }

        /// Drops the indexes of the layouts' tables that the new layout does not have, as it
        /// has them, and creates those it lacks.
        private func updateIndexes(_ change: SQLiteSchemaChange) throws {
            let layoutTables = Set(
                [change.source, change.destination].flatMap {
                    $0.entityTables.map(\.name) + $0.joinTables.map(\.name) + $0.referenceTables.map(\.name)
                })
            let wanted = Dictionary(
                change.destination.indexes.map { ($0.name, $0.createStatement) },
                uniquingKeysWith: { first, _ in first })
            let existing = try connection.statement(
                "SELECT name, tbl_name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            ).rows { ($0.value(at: 0), $0.value(at: 1), $0.value(at: 2)) }
            var kept: Set<String> = []
            for case (.text(let name), .text(let table), .text(let sql)) in existing where layoutTables.contains(table)
            {
                if wanted[name] == sql {
                    kept.insert(name)
                } else {
                    try connection.execute(
                        script: "DROP INDEX \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\"")
                }
            }
            for index in change.destination.indexes where !kept.contains(index.name) {
                try connection.execute(script: index.createStatement)
            }
        }

        /// Each entity number's stored name and largest primary key.
        private func storedEntities() throws -> [Int64: (name: String, max: Int64)] {
            let rows = try connection.statement("SELECT Z_ENT, Z_NAME, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
                .rows { ($0.value(at: 0), $0.value(at: 1), $0.value(at: 2)) }
            var entities: [Int64: (name: String, max: Int64)] = [:]
            for case (.integer(let number), .text(let name), let max) in rows {
                if case .integer(let largest) = max {
                    entities[number] = (name, largest)
                } else {
                    entities[number] = (name, 0)
                }
            }
            return entities
        }

        /// Rewrites the `Z_PRIMARYKEY` rows for the new entity numbers. An entity made from an
        /// old one keeps the old one's name, as Core Data keeps it after a rename, unless another
        /// entity now has that name; a root keeps the largest primary key of the old roots its
        /// rows come from.
        private func updatePrimaryKeys(
            _ change: SQLiteSchemaChange, stored: [Int64: (name: String, max: Int64)]
        ) throws {
            try connection.execute(script: "DELETE FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
            let insert = try connection.statement(
                "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, ?)")
            let destination = change.destination
            for (name, number) in destination.entityNumbers.sorted(by: { $0.value < $1.value }) {
                let parent = destination.superentities[name].flatMap { destination.entityNumbers[$0] } ?? 0
                let oldNumber = change.mapping.entitiesByDestination[name].flatMap {
                    change.source.entityNumbers[$0.source.name]
                }
                var largest: Int64 = 0
                if parent == 0, let table = destination.tableOfEntity[name] {
                    for entity in table.entities {
                        guard let made = change.mapping.entitiesByDestination[entity],
                            let root = change.source.entityNumbers[made.source.rootEntityName]
                        else { continue }
                        largest = max(largest, stored[root]?.max ?? 0)
                    }
                }
                // The old name, unless another entity of the new layout has it.
                let storedName =
                    oldNumber.flatMap { stored[$0]?.name }.flatMap {
                        $0 == name || destination.entityNumbers[$0] == nil ? $0 : nil
                    } ?? name
                try insert.execute([.integer(number), .text(storedName), .integer(parent), .integer(largest)])
            }
        }
    }
}
