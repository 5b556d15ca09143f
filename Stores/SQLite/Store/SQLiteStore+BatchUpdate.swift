import Strata

extension SQLiteStore {
    /// Runs `update` as one `UPDATE … SET …, Z_OPT = Z_OPT + 1 WHERE … RETURNING` in a write
    /// transaction; `nil` (the core's context does it) when the store records persistent
    /// history, when part of the predicate has no SQL form, or when an attribute has no column
    /// in the entity's table.
    public func executeBatchUpdate(_ update: StoreBatchUpdate) throws -> [ObjectID]? {
        guard !options.tracksPersistentHistory, !options.isReadOnly else { return nil }
        let entity = try entitySchema(named: update.entityName)
        let table = try table(of: entity.name)
        let reader = rowReader(of: entity, in: table)
        var assignments = ["Z_OPT = Z_OPT + 1"]
        var parameters: [SQLiteValue] = []
        for (key, value) in update.values.sorted(by: { $0.key < $1.key }) {
            guard let index = reader.attributeIndexes[key] else { return nil }
            assignments.append("\(table.columns[index].name) = ?")
            parameters.append(SQLiteValueCodec.encode(value))
        }
        var translator = SQLitePredicateTranslator(store: self, entity: entity, table: table)
        var conditions: [String] = []
        let kinds = update.includesSubentities ? [entity.name] + entity.descendantNames : [entity.name]
        if let condition = entityCondition(kinds, in: table) { conditions.append(condition) }
        for part in Self.conjuncts(of: update.predicate) {
            guard let condition = translator.condition(for: part) else { return nil }
            conditions.append("(\(condition))")
        }
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let sql =
            "UPDATE \(table.name) AS t0 SET \(assignments.joined(separator: ", "))\(whereClause) RETURNING Z_PK, Z_ENT"
        let bound = parameters + translator.parameters
        return try write("running a batch update of \(entity.name)") { connection in
            trace.explain(sql, bound, on: connection)
            return try connection.statement(sql).rowsThrowing(bound) {
                try objectID(primaryKey: $0.value(at: 0), entityNumber: $0.value(at: 1))
            }
        }
    }
}
