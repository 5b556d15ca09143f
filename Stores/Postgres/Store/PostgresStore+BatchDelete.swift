import Strata

extension PostgresStore {
    /// Runs `delete` in SQL in one transaction (``PostgresBatchDeletion``): the rows it names or
    /// matches, those the cascade rules reach, the nullify rules' changes, the join-table and
    /// reference-table rows, and, for a store recording persistent history, the transaction;
    /// `nil` (the core's context does it) when part of the predicate has no SQL form.
    public func executeBatchDelete(_ delete: StoreBatchDelete) throws -> StoreBatchDeleteResult? {
        let history = options.tracksPersistentHistory ? delete.history : nil
        guard !options.isReadOnly, history != nil || !options.tracksPersistentHistory else { return nil }
        let lists = delete.listsObjectIDs || history != nil
        let mark: (PostgresBatchDeletion) throws -> Void
        switch delete.target {
        case .matching(let entityName, let includesSubentities, let predicate):
            let (reader, conditions, residual, translator) = try selection(
                of: entityName, includingSubentities: includesSubentities, where: predicate)
            guard residual.isEmpty else { return nil }
            let entity = try entitySchema(named: entityName)
            let kinds = entity.names(includingSubentities: includesSubentities)
            if predicate == nil && Set(kinds).isSuperset(of: reader.table.entities.filter(entityNames.contains)) {
                mark = { $0.markWholeTable(reader.table) }
            } else {
                mark = { try $0.markRows(of: reader, where: conditions, translator.parameters) }
            }
        case .objects(let objectIDs):
            mark = { try $0.markObjects(objectIDs) }
        }
        do {
            return try recordedHistory.recording { note in
                try withConnection { connection in
                    try connection.transaction {
                        let deletion = PostgresBatchDeletion(store: self, connection: connection)
                        try mark(deletion)
                        try deletion.cascade()
                        let denials = try deletion.denials()
                        guard denials.isEmpty else { throw RefusedDeletion(denials: denials) }
                        let nullified = try deletion.nullify(listing: lists)
                        guard lists else {
                            let count = try deletion.matchedCount()
                            try deletion.deleteMarkedRows()
                            return StoreBatchDeleteResult(matchedCount: count)
                        }
                        let marked = try deletion.marked()
                        let deletions = marked.map {
                            StoreChangeSet.Deletion(objectID: $0.objectID, expectedVersion: 0)
                        }
                        let tombstones = history == nil ? [:] : try tombstoneSnapshots(of: deletions, on: connection)
                        try deletion.deleteMarkedRows()
                        if let history, !deletions.isEmpty {
                            let updates = nullified.map {
                                StoreChangeSet.ObjectChange(
                                    objectID: $0.objectID, values: [:], expectedVersion: 0,
                                    changedKeys: $0.relationships)
                            }
                            note(
                                try recordHistory(
                                    of: StoreChangeSet(updated: updates, deleted: deletions, history: history),
                                    stored: tombstones, notifying: true, on: connection))
                        }
                        return StoreBatchDeleteResult(
                            matched: marked.filter(\.isMatched).map(\.objectID), deleted: marked.map(\.objectID),
                            updated: nullified.map(\.objectID))
                    }
                }
            }
        } catch let refused as RefusedDeletion {
            return StoreBatchDeleteResult(denials: refused.denials)
        }
    }
}

/// Rolls back a batch deletion that deny rules refuse.
private struct RefusedDeletion: Error {
    let denials: [StoreBatchDeleteResult.Denial]
}
