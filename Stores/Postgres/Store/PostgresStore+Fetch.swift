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

    /// Runs `request` on `connection`, inside its transaction if it has one. A statement
    /// computing arithmetic that the server refuses to compute (an overflow, a division by
    /// zero: a data exception, where the evaluator has an answer of its own) runs again with
    /// the arithmetic left to the evaluator; inside a transaction the refused statement runs
    /// under a savepoint, so that the transaction goes on.
    func execute(_ request: StoreFetchRequest, on connection: PostgresConnection) throws -> StoreFetchResult {
        var statement = try fetchStatement(for: request)
        connection.trace?.explain(statement.sql, statement.parameters, on: connection)
        let rows: PostgresResult
        do {
            rows =
                statement.computesArithmetic
                ? try connection.withSavepoint { try connection.execute(statement.sql, statement.parameters) }
                : try connection.execute(statement.sql, statement.parameters)
        } catch let error as PostgresError where error.isDataException && statement.computesArithmetic {
            statement = try fetchStatement(for: request, translatingArithmetic: false)
            rows = try connection.execute(statement.sql, statement.parameters)
        }
        let reader = statement.reader
        guard statement.isInMemory else {
            switch request.resultType {
            case .count: return .count(Int(rows.int64(0, 0) ?? 0))
            case .objectIDs:
                return .objectIDs(try (0..<rows.rowCount).map { try objectID(in: rows, row: $0, reader: reader) })
            case .snapshots:
                return .snapshots(
                    try (0..<rows.rowCount).map { try reader.snapshot(rows, row: $0, storeName: storeName) })
            }
        }
        let loader = PostgresObjectLoader(store: self, connection: connection)
        let objects = try (0..<rows.rowCount).map {
            PostgresObjectResolver(snapshot: try reader.snapshot(rows, row: $0, storeName: storeName), loader: loader)
        }
        let residual = statement.residual
        return try request.result(
            of: objects, matching: residual.isEmpty ? nil : FetchPredicate.and(residual), snapshot: \.snapshot,
            check: loader.rethrow)
    }

    /// The one statement `request` runs, and what the core evaluates on its rows; without
    /// `translatingArithmetic`, comparisons of arithmetic are among the latter.
    func fetchStatement(
        for request: StoreFetchRequest, translatingArithmetic: Bool = true
    ) throws -> PostgresFetchStatement {
        let (reader, conditions, residual, translator) = try selection(
            of: request.entityName, includingSubentities: request.includesSubentities, where: request.predicate,
            translatingArithmetic: translatingArithmetic)
        let source = "FROM \(reader.qualifiedName) t WHERE \(conditions)"
        guard residual.isEmpty, let order = translator.orderBy(request.sortDescriptors) else {
            return PostgresFetchStatement(
                sql: "SELECT \(reader.selectList("t")) \(source) ORDER BY t._pk", parameters: translator.parameters,
                reader: reader, residual: residual, isInMemory: true,
                computesArithmetic: translator.computesArithmetic)
        }
        var parameters = translator.parameters
        var page = ""
        if request.fetchOffset > 0 {
            parameters.append(.bigint(Int64(request.fetchOffset)))
            page += " OFFSET $\(parameters.count)"
        }
        if request.pageSize != .max {
            parameters.append(.bigint(Int64(request.pageSize)))
            page += " LIMIT $\(parameters.count)"
        }
        let sql =
            switch request.resultType {
            case .count: "SELECT count(*) FROM (SELECT 1 \(source)\(page)) c"
            case .objectIDs: "SELECT t._pk, t._ent \(source) ORDER BY \(order)\(page)"
            case .snapshots: "SELECT \(reader.selectList("t")) \(source) ORDER BY \(order)\(page)"
            }
        return PostgresFetchStatement(
            sql: sql, parameters: parameters, reader: reader, residual: [], isInMemory: false,
            computesArithmetic: translator.computesArithmetic)
    }

    /// The rows of `entityName` (and its sub-entities when `includingSubentities`) that
    /// `predicate` matches, in the table read by `reader` as `t`: the SQL condition of the
    /// entities and of the parts of a top-level `AND` that translate, with the translator that
    /// holds their parameters (`$1` is the entity numbers), and the parts left to evaluate in
    /// memory. With `translatingArithmetic`, comparisons of arithmetic translate too
    /// (``PostgresPredicateTranslator/translatesArithmetic``).
    func selection(
        of entityName: String, includingSubentities: Bool, where predicate: FetchPredicate?,
        translatingArithmetic: Bool = false
    ) throws -> (
        reader: PostgresRowReader, conditions: String, residual: [FetchPredicate],
        translator: PostgresPredicateTranslator
    ) {
        let entity = try entitySchema(named: entityName)
        guard let table = layout.tableOfEntity[entity.name], let reader = rowReaders[table.name] else {
            throw StoreError(code: .unknownEntity, message: "\(storeName) has no table for '\(entity.name)'.")
        }
        let kinds = entity.names(includingSubentities: includingSubentities)
            .filter(entityNames.contains).compactMap { layout.entityNumbers[$0] }
        var translator = PostgresPredicateTranslator(
            store: self, entity: entity, parameters: [.array(Self.smallintArray(kinds))])
        translator.translatesArithmetic = translatingArithmetic
        var conditions = ["t._ent = ANY($1::int2[])"]
        var residual: [FetchPredicate] = []
        let parts = predicate?.conjuncts ?? []
        for part in parts {
            if let condition = translator.condition(for: part) {
                conditions.append("(\(condition))")
            } else {
                residual.append(part)
            }
        }
        conditions += spatialPlanner.conditions(for: parts, entity: entity, translator: &translator)
        return (reader, conditions.joined(separator: " AND "), residual, translator)
    }

    func objectID(in rows: PostgresResult, row: Int, reader: PostgresRowReader) throws -> ObjectID {
        guard let key = rows.int64(row, 0), let name = reader.entityName(rows, row: row) else {
            throw StoreError(
                code: .corrupt, message: "\(storeName) has a row of '\(reader.table.name)' it cannot read.")
        }
        return objectID(name, key)
    }
}
