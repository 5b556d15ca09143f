import Strata

extension PostgresStore {
    /// Runs `update` as one `UPDATE … SET _opt = _opt + 1, … WHERE … RETURNING _pk, _ent` in a
    /// transaction that also records it in persistent history, when the store keeps history.
    /// Computed values are computed by SQL where it computes them as the core's evaluator does
    /// (``PostgresPredicateTranslator/ExactArithmetic``). `nil` (the core's context does it)
    /// when part of the predicate has no SQL form, when an attribute has no column of its own
    /// (a composite's leaves), when a computed value has no exact SQL form, is not of its
    /// attribute's kind, or may be null (an optional operand) for a non-optional attribute, or when the server refuses to compute one (an overflow, a division by
    /// zero, a value out of its column's range): nothing is changed then.
    public func executeBatchUpdate(_ update: StoreBatchUpdate) throws -> StoreBatchUpdateResult? {
        let history = options.tracksPersistentHistory ? update.history : nil
        guard !options.isReadOnly, history != nil || !options.tracksPersistentHistory else { return nil }
        let entity = try entitySchema(named: update.entityName)
        let (reader, conditions, residual, selected) = try selection(
            of: entity.name, includingSubentities: update.includesSubentities, where: update.predicate)
        guard residual.isEmpty else { return nil }
        var translator = selected
        var assignments = ["_opt = t._opt + 1"]
        func column(of key: String) -> PostgresLayout.Column? {
            reader.table.column(
                .attribute(entity: layout.declaringEntity(of: key, from: entity.name, model: model), name: key))
        }
        for (key, value) in update.values.sorted(by: { $0.key < $1.key }) {
            guard let column = column(of: key) else { return nil }
            assignments.append("\(column.quoted) = \(translator.bind(PostgresValueCodec.encode(value)))")
        }
        for (key, expression) in update.expressions.sorted(by: { $0.key < $1.key }) {
            guard let column = column(of: key), let attribute = entity.attributesByName[key],
                let value = translator.exactArithmetic(of: expression),
                value.isReal
                    ? attribute.type == .double : [.integer16, .integer32, .integer64].contains(attribute.type),
                attribute.isOptional || !value.mayBeNull
            else { return nil }
            assignments.append("\(column.quoted) = \(value.sql)")
        }
        let sql =
            "UPDATE \(reader.qualifiedName) AS t SET \(assignments.joined(separator: ", ")) WHERE \(conditions) "
            + "RETURNING t._pk, t._ent"
        let parameters = translator.parameters
        let ids = try recordedHistory.recording { note in
            try withConnection { connection -> [ObjectID]? in
                do {
                    return try updatedRows(sql, parameters, reader: reader, on: connection) { ids in
                        guard let history, !ids.isEmpty else { return }
                        let keys = Set(update.values.keys).union(update.expressions.keys)
                        let changes = ids.map {
                            StoreChangeSet.ObjectChange(
                                objectID: $0, values: [:], expectedVersion: 0, changedKeys: keys)
                        }
                        note(
                            try recordHistory(
                                of: StoreChangeSet(updated: changes, history: history), stored: [:], notifying: true,
                                on: connection))
                    }
                } catch let error as PostgresError where error.isDataException && !update.expressions.isEmpty {
                    return nil
                }
            }
        }
        guard let ids else { return nil }
        return update.listsObjectIDs ? StoreBatchUpdateResult(objectIDs: ids) : StoreBatchUpdateResult(count: ids.count)
    }

    /// Runs the `UPDATE … RETURNING` `sql` in a transaction of its own, then `recording` with
    /// the IDs of the rows it changed, before the transaction commits.
    private func updatedRows(
        _ sql: String, _ parameters: [PostgresValue], reader: PostgresRowReader, on connection: PostgresConnection,
        recording: ([ObjectID]) throws -> Void
    ) throws -> [ObjectID] {
        try connection.transaction {
            let rows = try connection.execute(sql, parameters)
            let ids = try (0..<rows.rowCount).map { try objectID(in: rows, row: $0, reader: reader) }
            try recording(ids)
            return ids
        }
    }
}
