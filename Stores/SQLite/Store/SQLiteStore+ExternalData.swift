import Foundation
import Strata

extension SQLiteStore {
    /// Removes the external data files no row refers to: those of saves that stopped before
    /// committing, and those of values replaced or deleted by saves that stopped before removing
    /// them. Runs while holding the file's write lock, so that no save of another connection is
    /// between writing its files and committing; skipped for a read-only store, a store without
    /// external data, and a file holding tables this store's model does not describe (their rows
    /// may refer to files too). Only files named as a store names them are removed, and never
    /// through a symbolic link.
    ///
    /// - Returns: how many files it removed.
    @discardableResult
    func removeOrphanedExternalData() throws -> Int {
        guard !options.isReadOnly, try externalData.files.exists() else { return 0 }
        return try write("removing orphaned external data") { connection in
            let tables = try connection.statement(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'Z[^_]*'"
            ).rows { row -> String? in
                if case .text(let name) = row.value(at: 0) { return name }
                return nil
            }
            let known = Set(layout.entityTables.map(\.name))
            guard tables.allSatisfy({ $0.map(known.contains) ?? true }) else { return 0 }
            var referenced: Set<ExternalDataFileName> = []
            for table in layout.entityTables {
                for column in table.columns {
                    guard case .attribute(let entity, let name) = column.role,
                        model.entitiesByName[entity]?.attributesByName[name]?.storesExternally == true
                    else { continue }
                    let names = try connection.statement(
                        "SELECT \(column.name) FROM \(table.name) WHERE substr(\(column.name), 1, 1) = x'02'"
                    ).rows { $0.value(at: 0) }
                    // A malformed reference names no file, so it keeps none.
                    referenced.formUnion(names.compactMap { try? SQLiteExternalData.fileName(in: $0, place: "") })
                }
            }
            return try externalData.files.removeOrphans(keeping: referenced)
        }
    }
}
