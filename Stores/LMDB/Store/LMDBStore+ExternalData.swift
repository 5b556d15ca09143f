import CStrataLMDB
import Foundation
import Strata

extension LMDBStore {
    /// Removes the external data files no record refers to: those of saves that stopped before
    /// committing, and those of values replaced or deleted by saves that stopped before removing
    /// them (or by a store trading durability for speed, which leaves them to this). Runs in a
    /// write transaction, so that no other writer is between writing its files and committing;
    /// skipped for a read-only store, a store without external data, and a model whose entities
    /// of other configurations keep external data too (their records may be in this file).
    ///
    /// - Returns: how many files it removed.
    @discardableResult
    func removeOrphanedExternalData() throws -> Int {
        guard !options.isReadOnly, try externalData.exists(),
            externalAttributes.keys.allSatisfy(entityNames.contains)
        else { return 0 }
        let roots = Set(externalAttributes.keys.compactMap { model.entitiesByName[$0]?.rootEntityName })
        return try write("removing orphaned external data") { loader in
            // Commits made without flushing (relaxed durability) are flushed first: a file only
            // they refer to must stay referred to after a system crash.
            if environment.hasRelaxedDurability {
                try LMDBError.check(mdb_env_sync(environment.handle, 1), "mdb_env_sync")
            }
            var referenced: Set<ExternalDataFileName> = []
            for root in roots {
                guard let database = databases.records[root] else { continue }
                try loader.transaction.scan(database, from: []) { key, value in
                    let record = try layout.decode(Array(value), primaryKey: LMDBLayout.primaryKey(key), root: root)
                    for name in externalAttributes[record.objectID.entityName] ?? [] {
                        // A malformed reference names no file, so it keeps none.
                        if case .binary(let marked)? = record.values[name],
                            let file = try? ExternalBinaryData.fileName(inMarked: marked, place: "")
                        {
                            referenced.insert(file)
                        }
                    }
                    return true
                }
            }
            return try externalData.removeOrphans(keeping: referenced)
        }
    }
}
