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
