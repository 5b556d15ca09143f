import Strata

extension PostgresStore {
    /// Runs a fetch in one statement when its whole predicate and every sort translate to SQL
    /// (``PostgresPredicateTranslator``), with the offset and limit in the statement too.
    /// Otherwise the statement selects the rows matching the parts of an `AND` that translate,
    /// and the core's evaluator tests the rest, following relationships to their rows, before
    /// the store sorts, offsets and limits.
    public func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        try withConnection { try execute(request, on: $0) }
    }

    /// Runs `request` on `connection`, inside its transaction if it has one.
    func execute(_ request: StoreFetchRequest, on connection: PostgresConnection) throws -> StoreFetchResult {
        let entity = try entitySchema(named: request.entityName)
        guard let table = layout.tableOfEntity[entity.name], let reader = rowReaders[table.name] else {
            throw StoreError(code: .unknownEntity, message: "\(storeName) has no table for '\(entity.name)'.")
        }
        let kinds = (request.includesSubentities ? [entity.name] + entity.descendantNames : [entity.name])
            .filter(entityNames.contains).compactMap { layout.entityNumbers[$0] }
        var translator = PostgresPredicateTranslator(
            store: self, entity: entity, parameters: [.array(Self.smallintArray(kinds))])
        var conditions = ["t._ent = ANY($1::int2[])"]
        var residual: [FetchPredicate] = []
        if let predicate = request.predicate {
            let parts: [FetchPredicate] = if case .and(let parts) = predicate { parts } else { [predicate] }
            for part in parts {
                if let condition = translator.condition(for: part) {
                    conditions.append("(\(condition))")
                } else {
                    residual.append(part)
                }
            }
        }
        let source = "FROM \(reader.qualifiedName) t WHERE \(conditions.joined(separator: " AND "))"
        let offset = max(request.fetchOffset, 0)
        let limit = request.pageSize == .max ? nil : request.pageSize
        if residual.isEmpty, let order = translator.orderBy(request.sortDescriptors) {
            var parameters = translator.parameters
            var page = ""
            if offset > 0 {
                parameters.append(.bigint(Int64(offset)))
                page += " OFFSET $\(parameters.count)"
            }
            if let limit {
                parameters.append(.bigint(Int64(limit)))
                page += " LIMIT $\(parameters.count)"
            }
            switch request.resultType {
            case .count:
                let rows = try connection.execute("SELECT count(*) FROM (SELECT 1 \(source)\(page)) c", parameters)
                return .count(Int(rows.int64(0, 0) ?? 0))
            case .objectIDs:
                let rows = try connection.execute("SELECT t._pk, t._ent \(source) ORDER BY \(order)\(page)", parameters)
                return .objectIDs(try (0..<rows.rowCount).map { try objectID(in: rows, row: $0, reader: reader) })
            case .snapshots:
                let rows = try connection.execute(
                    "SELECT \(reader.selectList("t")) \(source) ORDER BY \(order)\(page)", parameters)
                return .snapshots(
                    try (0..<rows.rowCount).map { try reader.snapshot(rows, row: $0, storeName: storeName) })
            }
        }
        let rows = try connection.execute(
            "SELECT \(reader.selectList("t")) \(source) ORDER BY t._pk", translator.parameters)
        let loader = PostgresObjectLoader(store: self, connection: connection)
        let objects = try (0..<rows.rowCount).map {
            PostgresObjectResolver(snapshot: try reader.snapshot(rows, row: $0, storeName: storeName), loader: loader)
        }
        return try request.result(
            of: objects, matching: residual.isEmpty ? nil : FetchPredicate.and(residual), snapshot: \.snapshot,
            check: loader.rethrow)
    }

    private func objectID(in rows: PostgresResult, row: Int, reader: PostgresRowReader) throws -> ObjectID {
        guard let key = rows.int64(row, 0), let name = reader.entityName(rows, row: row) else {
            throw StoreError(
                code: .corrupt, message: "\(storeName) has a row of '\(reader.table.name)' it cannot read.")
        }
        return objectID(name, key)
    }
}
