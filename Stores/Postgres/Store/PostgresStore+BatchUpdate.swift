import Strata

extension PostgresStore {
    /// Runs `update` as one `UPDATE … SET _opt = _opt + 1, … WHERE … RETURNING _pk, _ent` in a
    /// transaction that also records it in persistent history, when the store keeps history.
    /// `nil` (the core's context does it) when part of the predicate has no SQL form, when an
    /// attribute has no column of its own (a composite's leaves), or when the update computes
    /// values.
    public func executeBatchUpdate(_ update: StoreBatchUpdate) throws -> StoreBatchUpdateResult? {
        let history = options.tracksPersistentHistory ? update.history : nil
        guard !options.isReadOnly, history != nil || !options.tracksPersistentHistory, update.expressions.isEmpty
        else { return nil }
        let entity = try entitySchema(named: update.entityName)
        let (reader, conditions, residual, translator) = try selection(
            of: entity.name, includingSubentities: update.includesSubentities, where: update.predicate)
        guard residual.isEmpty else { return nil }
        var parameters = translator.parameters
        var assignments = ["_opt = t._opt + 1"]
        for (key, value) in update.values.sorted(by: { $0.key < $1.key }) {
            let owner = layout.declaringEntity(of: key, from: entity.name, model: model)
            guard let column = reader.table.column(.attribute(entity: owner, name: key)) else { return nil }
            parameters.append(PostgresValueCodec.encode(value))
            assignments.append("\(column.quoted) = $\(parameters.count)")
        }
        let sql =
            "UPDATE \(reader.qualifiedName) AS t SET \(assignments.joined(separator: ", ")) WHERE \(conditions) "
            + "RETURNING t._pk, t._ent"
        let ids = try recordedHistory.recording { note in
            try withConnection { connection in
                try connection.transaction {
                    let rows = try connection.execute(sql, parameters)
                    let ids = try (0..<rows.rowCount).map { try objectID(in: rows, row: $0, reader: reader) }
                    if let history, !ids.isEmpty {
                        let keys = Set(update.values.keys)
                        let changes = ids.map {
                            StoreChangeSet.ObjectChange(
                                objectID: $0, values: [:], expectedVersion: 0, changedKeys: keys)
                        }
                        note(
                            try recordHistory(
                                of: StoreChangeSet(updated: changes, history: history), stored: [:], notifying: true,
                                on: connection))
                    }
                    return ids
                }
            }
        }
        return update.listsObjectIDs ? StoreBatchUpdateResult(objectIDs: ids) : StoreBatchUpdateResult(count: ids.count)
    }
}
