import Strata

extension SQLiteStore {
    /// Runs `delete` in SQL in one write transaction (`SQLiteBatchDeletion`): the rows it names
    /// or matches, those the cascade rules reach, the nullify rules' changes and the join-table
    /// rows; `nil` (the core's context does it) when the store records persistent history or
    /// part of the predicate has no SQL form.
    public func executeBatchDelete(_ delete: StoreBatchDelete) throws -> StoreBatchDeleteResult? {
        guard !options.tracksPersistentHistory, !options.isReadOnly else { return nil }
        let seed: (inout SQLiteBatchDeletion) throws -> Void
        let action: String
        switch delete.target {
        case .matching(let entityName, let includesSubentities, let predicate):
            let entity = try entitySchema(named: entityName)
            let table = try table(of: entityName)
            action = "running a batch delete of \(entityName)"
            let kinds = includesSubentities ? [entityName] + entity.descendantNames : [entityName]
            if predicate == nil && Set(kinds).isSuperset(of: table.entities) {
                seed = { $0.deleteWholeTable(table) }
                break
            }
            var translator = SQLitePredicateTranslator(store: self, entity: entity, table: table)
            var conditions = entityCondition(kinds, in: table).map { [$0] } ?? []
            for part in Self.conjuncts(of: predicate) {
                guard let condition = translator.condition(for: part) else { return nil }
                conditions.append("(\(condition))")
            }
            conditions += rTrees.conditions(for: Self.conjuncts(of: predicate), entity: entity, translator: &translator)
            let parameters = translator.parameters
            seed = { try $0.deleteRows(of: table, where: conditions.joined(separator: " AND "), parameters) }
        case .objects(let objectIDs):
            action = "running a batch delete of \(objectIDs.count) objects"
            seed = { try $0.deleteObjects(objectIDs) }
        }
        do {
            return try write(action) { connection in
                var deletion = SQLiteBatchDeletion(store: self, connection: connection)
                try seed(&deletion)
                try deletion.cascade()
                let denials = try deletion.denials()
                guard denials.isEmpty else { throw RefusedDeletion(denials: denials) }
                let updated = try deletion.nullify(listing: delete.listsObjectIDs)
                guard delete.listsObjectIDs else {
                    let marked = try deletion.markedMatchCount()
                    return StoreBatchDeleteResult(matchedCount: marked + (try deletion.deleteMarkedRows()))
                }
                let deleted = try deletion.deletedObjects()
                _ = try deletion.deleteMarkedRows()
                return StoreBatchDeleteResult(matched: deleted.matched, deleted: deleted.all, updated: updated)
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
