import Strata

extension SQLiteStore {
    /// Runs `update` as one `UPDATE … SET …, Z_OPT = Z_OPT + 1 WHERE …` in a write transaction,
    /// after selecting the rows it changes when it lists them or records them in persistent
    /// history. Computed values are worked out row by row by `strata_evaluate`
    /// (``SQLiteRowEvaluations``). `nil` (the core's context does it) when part of the
    /// predicate can be evaluated neither in SQL nor row by row (it reads more than the
    /// entity's attributes), when an attribute has no column in the entity's table or keeps
    /// external binary data (whose files a save writes), or when a computed value does not fit
    /// its attribute (nothing is changed).
    public func executeBatchUpdate(_ update: StoreBatchUpdate) throws -> StoreBatchUpdateResult? {
        let history = options.tracksPersistentHistory ? update.history : nil
        guard !options.isReadOnly, history != nil || !options.tracksPersistentHistory else { return nil }
        let entity = try entitySchema(named: update.entityName)
        let table = try table(of: entity.name)
        let reader = rowReader(of: entity, in: table)
        let externalKeys = Set(reader.externalAttributes.map(\.name))
        guard externalKeys.isDisjoint(with: update.values.keys), externalKeys.isDisjoint(with: update.expressions.keys)
        else { return nil }
        var assignments = ["Z_OPT = Z_OPT + 1"]
        var parameters: [SQLiteValue] = []
        for (key, value) in update.values.sorted(by: { $0.key < $1.key }) {
            guard let index = reader.attributeIndexes[key] else { return nil }
            assignments.append("\(table.columns[index].name) = ?")
            parameters.append(SQLiteValueCodec.encode(value))
        }
        var translator = SQLitePredicateTranslator(store: self, entity: entity, table: table)
        for (key, expression) in update.expressions.sorted(by: { $0.key < $1.key }) {
            guard let index = reader.attributeIndexes[key], let attribute = entity.attributesByName[key],
                let value = translator.evaluatedValue(of: expression, for: attribute)
            else { return nil }
            assignments.append("\(table.columns[index].name) = \(value)")
        }
        let valueParameterCount = translator.parameters.count
        let (conditions, remaining) = selection(
            of: entity, includingSubentities: update.includesSubentities, in: table, where: update.predicate,
            translator: &translator)
        guard remaining.isEmpty else { return nil }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        // Selecting the rows first and updating them without `RETURNING` is faster: SQLite
        // runs an `UPDATE … RETURNING` in two passes.
        let select = "SELECT t0.Z_PK, t0.Z_ENT FROM \(table.name) AS t0\(whereClause)"
        let sql = "UPDATE \(table.name) AS t0 SET \(assignments.joined(separator: ", "))\(whereClause)"
        let bound = parameters + translator.parameters
        let whereParameters = Array(translator.parameters[valueParameterCount...])
        do {
            return try recordedHistory.recording { note in
                try write("running a batch update of \(entity.name)", evaluating: translator.rowEvaluations) {
                    connection in
                    trace.explain(sql, bound, on: connection)
                    guard update.listsObjectIDs || history != nil else {
                        try connection.statement(sql).execute(bound)
                        return StoreBatchUpdateResult(count: Int(connection.changes))
                    }
                    let ids = try connection.statement(select).rowsThrowing(whereParameters) {
                        try objectID(primaryKey: $0.value(at: 0), entityNumber: $0.value(at: 1))
                    }
                    guard !ids.isEmpty else { return StoreBatchUpdateResult(objectIDs: []) }
                    try connection.statement(sql).execute(bound)
                    if let history {
                        let keys = Set(update.values.keys).union(update.expressions.keys)
                        let changes = ids.map {
                            StoreChangeSet.ObjectChange(
                                objectID: $0, values: [:], expectedVersion: 0, changedKeys: keys)
                        }
                        try recordHistory(
                            of: StoreChangeSet(updated: changes, history: history), tombstones: [:], note: note,
                            on: connection)
                    }
                    return update.listsObjectIDs
                        ? StoreBatchUpdateResult(objectIDs: ids) : StoreBatchUpdateResult(count: ids.count)
                }
            }
        } catch SQLiteRowEvaluations.Failure.unfit {
            return nil
        }
    }
}
