import Strata

extension SQLiteStore {
    /// The saved objects of `constraint`'s entities whose keys hold `values`, read on the
    /// save's `connection` inside its write transaction: one statement, through the
    /// constraint's unique index (`Z_<Entity>_UNIQUE_…`).
    func storedObjects(
        holding values: [AttributeValue], of constraint: UniqueKeys, on connection: SQLiteConnection
    ) throws -> [ObjectID] {
        let kinds = constraint.entityNames.filter { layout.entityNumbers[$0] != nil }
        guard let first = kinds.first, let entity = model.entitiesByName[first] else { return [] }
        let table = try table(of: first)
        var translator = SQLitePredicateTranslator(store: self, entity: entity, table: table)
        guard let condition = translator.condition(for: constraint.predicate(matching: values)) else {
            throw StoreError(
                code: .unsupported,
                message: "\(storeName) cannot compare the keys (\(constraint.keys.joined(separator: ", "))) of "
                    + "the uniqueness constraint of '\(constraint.entityName)' in SQL.")
        }
        var conditions = ["(\(condition))"]
        if let entities = entityCondition(kinds, in: table) { conditions.append(entities) }
        let sql = "SELECT t0.Z_PK, t0.Z_ENT FROM \(table.name) t0 WHERE " + conditions.joined(separator: " AND ")
        let statement = try connection.cachedStatement(sql)
        return try statement.rowsThrowing(translator.parameters) {
            try objectID(primaryKey: $0.value(at: 0), entityNumber: $0.value(at: 1))
        }
    }
}

extension SQLiteStore {
    /// Clears, in their rows, the constrained keys `changes` gives its updated objects, when
    /// the save writes more than one object a constraint spans: SQLite checks a unique index
    /// at each statement, while the objects of one save may pass keys between them (two swap
    /// theirs, a new object takes the keys an updated one leaves). `checkUniqueness` has
    /// checked what the save leaves; the updates that follow write the keys back.
    func releaseConstrainedKeys(of changes: StoreChangeSet, on connection: SQLiteConnection) throws {
        guard !changes.updated.isEmpty else { return }
        for constraint in model.uniqueKeys {
            let spanned = Set(constraint.entityNames)
            let passing = changes.updated.filter { change in
                spanned.contains(change.objectID.entityName)
                    && (change.changedKeys.map { !$0.isDisjoint(with: constraint.keys) } ?? true)
            }
            guard !passing.isEmpty,
                passing.count > 1 || changes.inserted.contains(where: { spanned.contains($0.objectID.entityName) })
            else { continue }
            for change in passing {
                let row = try entityRow(of: change.objectID)
                // Only the keys the update writes back.
                let columns = constraint.keys.compactMap { key -> String? in
                    guard change.values[key] != nil,
                        let index = row.reader.attributeIndexes[key] ?? row.reader.toOnesByName[key]?.index
                    else { return nil }
                    return row.table.columns[index].name
                }
                guard !columns.isEmpty else { continue }
                let assignments = columns.map { "\($0) = NULL" }.joined(separator: ", ")
                try connection.cachedStatement("UPDATE \(row.table.name) SET \(assignments) WHERE Z_PK = ?")
                    .execute([.integer(try primaryKey(of: change.objectID))])
            }
        }
    }
}
