import Strata

extension LMDBStore {
    /// Runs `update` in one write transaction: the matching records (found as a fetch finds
    /// them) rewritten with the new values and their version raised by one, index entries
    /// replaced; `nil` (the core's context does it) when the store records persistent history.
    public func executeBatchUpdate(_ update: StoreBatchUpdate) throws -> StoreBatchUpdateResult? {
        guard !options.tracksPersistentHistory, !options.isReadOnly else { return nil }
        let matching = StoreFetchRequest(
            entityName: update.entityName, includesSubentities: update.includesSubentities,
            predicate: update.predicate, resultType: .snapshots)
        let ids = try write("running a batch update of \(update.entityName)") { loader in
            try matches(matching, loader).map { old in
                var values = old.values
                for (key, value) in update.values { values[key] = value }
                try put(
                    Snapshot(objectID: old.objectID, values: values, version: old.version + 1), replacing: old, loader)
                return old.objectID
            }
        }
        return update.listsObjectIDs ? StoreBatchUpdateResult(objectIDs: ids) : StoreBatchUpdateResult(count: ids.count)
    }

    /// The stored snapshots `request` matches, read in `loader`'s transaction as a fetch reads
    /// them.
    func matches(_ request: StoreFetchRequest, _ loader: LMDBObjectLoader) throws -> [Snapshot] {
        let (kinds, root, database) = try scope(of: request)
        var objects = try candidates(request, kinds: kinds, root: root, database: database, loader).map {
            LMDBRecordResolver(snapshot: $0, loader: loader)
        }
        if let predicate = request.predicate { objects = try predicate.filter(objects) }
        return objects.map(\.snapshot)
    }
}
