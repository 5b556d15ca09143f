import Strata

extension SQLiteStore {
    /// Runs `delete` in SQL in one write transaction (`SQLiteBatchDeletion`): the rows it names
    /// or matches, those the cascade rules reach, the nullify rules' changes and the join-table
    /// rows, and, for a store recording persistent history, the transaction; `nil` (the core's
    /// context does it) when part of the predicate has no SQL form. The external data files of
    /// the deleted rows are removed once the transaction commits.
    public func executeBatchDelete(_ delete: StoreBatchDelete) throws -> StoreBatchDeleteResult? {
        let history = options.tracksPersistentHistory ? delete.history : nil
        guard !options.isReadOnly, history != nil || !options.tracksPersistentHistory else { return nil }
        let lists = delete.listsObjectIDs || history != nil
        let seed: (inout SQLiteBatchDeletion) throws -> Void
        let action: String
        var evaluations: SQLiteRowEvaluations?
        switch delete.target {
        case .matching(let entityName, let includesSubentities, let predicate):
            let entity = try entitySchema(named: entityName)
            let table = try table(of: entityName)
            action = "running a batch delete of \(entityName)"
            let kinds = entity.names(includingSubentities: includesSubentities)
            if predicate == nil && Set(kinds).isSuperset(of: table.entities) {
                seed = { $0.deleteWholeTable(table) }
                break
            }
            var translator = SQLitePredicateTranslator(store: self, entity: entity, table: table)
            let (conditions, remaining) = selection(
                of: entity, includingSubentities: includesSubentities, in: table, where: predicate,
                translator: &translator)
            guard remaining.isEmpty else { return nil }
            let parameters = translator.parameters
            evaluations = translator.rowEvaluations
            seed = { try $0.deleteRows(of: table, where: conditions.joined(separator: " AND "), parameters) }
        case .objects(let objectIDs):
            action = "running a batch delete of \(objectIDs.count) objects"
            seed = { try $0.deleteObjects(objectIDs) }
        }
        var obsoleteFiles: [ExternalDataFileName] = []
        let result: StoreBatchDeleteResult
        do {
            result = try recordedHistory.recording { note in
                try write(action, evaluating: evaluations) { connection in
                    var deletion = SQLiteBatchDeletion(store: self, connection: connection)
                    try seed(&deletion)
                    try deletion.cascade()
                    let denials = try deletion.denials()
                    guard denials.isEmpty else { throw RefusedDeletion(denials: denials) }
                    let nullified = try deletion.nullify(listing: lists)
                    obsoleteFiles = try deletion.externalFilesOfMarkedRows()
                    guard lists else {
                        let marked = try deletion.markedMatchCount()
                        return StoreBatchDeleteResult(matchedCount: marked + (try deletion.deleteMarkedRows()))
                    }
                    let deleted = try deletion.deletedObjects()
                    let deletions = deleted.all.map { StoreChangeSet.Deletion(objectID: $0, expectedVersion: 0) }
                    let tombstones = history == nil ? [:] : try historyTombstones(of: deletions, on: connection)
                    _ = try deletion.deleteMarkedRows()
                    if let history, !deletions.isEmpty {
                        let updates = nullified.map {
                            StoreChangeSet.ObjectChange(
                                objectID: $0.objectID, values: [:], expectedVersion: 0, changedKeys: $0.relationships)
                        }
                        try recordHistory(
                            of: StoreChangeSet(updated: updates, deleted: deletions, history: history),
                            tombstones: tombstones, note: note, on: connection)
                    }
                    return StoreBatchDeleteResult(
                        matched: deleted.matched, deleted: deleted.all, updated: nullified.map(\.objectID))
                }
            }
        } catch let refused as RefusedDeletion {
            return StoreBatchDeleteResult(denials: refused.denials)
        }
        externalRemovals.add(obsoleteFiles)
        externalRemovals.removeDue(in: externalData.files, oldestReader: generations.oldestOpened)
        return result
    }
}

/// Rolls back a batch deletion that deny rules refuse.
private struct RefusedDeletion: Error {
    let denials: [StoreBatchDeleteResult.Denial]
}
