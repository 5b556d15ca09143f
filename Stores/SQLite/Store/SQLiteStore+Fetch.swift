import Strata

extension SQLiteStore {
    public func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        try execute(request, in: nil)
    }

    /// Runs `request` on the latest state, or in `generation`'s read transaction.
    func execute(_ request: StoreFetchRequest, in generation: SQLiteGeneration?) throws -> StoreFetchResult {
        let statement = try fetchStatement(for: request)
        let (sql, parameters, table) = (statement.sql, statement.parameters, statement.table)
        statistics.recordFetch(inMemory: statement.isInMemory)
        return try read("fetching \(request.entityName)", in: generation, evaluating: statement.evaluations) {
            connection in
            trace.explain(sql, parameters, on: connection)
            if statement.isInMemory {
                let remaining = statement.remaining
                let snapshots = try connection.statement(sql).rowsThrowing(parameters) {
                    try snapshot(at: $0, in: table)
                }
                let graph = SQLiteObjectGraph(store: self, connection: connection)
                return try request.result(
                    of: snapshots.map { graph.resolver(for: $0) },
                    matching: remaining.isEmpty ? nil : remaining.count == 1 ? remaining[0] : .and(remaining),
                    snapshot: \.snapshot, check: graph.throwFirstError)
            }
            switch request.resultType {
            case .count:
                let counts = try connection.cachedStatement(sql).rows(parameters) { $0.value(at: 0) }
                guard case .integer(let count)? = counts.first else { return .count(0) }
                return .count(Int(count))
            case .objectIDs:
                let rows = try connection.cachedStatement(sql).rows(parameters) { ($0.value(at: 0), $0.value(at: 1)) }
                var ids = try rows.map { try objectID(primaryKey: $0.0, entityNumber: $0.1, in: table) }
                if statement.sortsByKey { Self.putInKeyOrder(&ids, by: \.self) }
                return .objectIDs(ids)
            case .snapshots:
                var snapshots = try connection.cachedStatement(sql).rowsThrowing(parameters) {
                    try snapshot(at: $0, in: table)
                }
                if statement.sortsByKey { Self.putInKeyOrder(&snapshots, by: \.objectID) }
                return .snapshots(snapshots)
            }
        }
    }

    /// The one statement `request` runs, and what the core evaluates around it.
    func fetchStatement(for request: StoreFetchRequest) throws -> SQLiteFetchStatement {
        let entity = try entitySchema(named: request.entityName)
        let table = try table(of: entity.name)
        var translator = SQLitePredicateTranslator(store: self, entity: entity, table: table)
        let (conditions, remaining) = selection(
            of: entity, includingSubentities: request.includesSubentities, in: table, where: request.predicate,
            translator: &translator)
        let orderTerms = translator.orderTerms(for: request.sortDescriptors)
        let whereClause = conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
        let order = " ORDER BY " + ((orderTerms ?? []) + ["t0.Z_PK"]).joined(separator: ", ")
        func statement(_ sql: String, inMemory: Bool = false, sortsByKey: Bool = false) -> SQLiteFetchStatement {
            SQLiteFetchStatement(
                sql: sql, parameters: translator.parameters, table: table, evaluations: translator.rowEvaluations,
                remaining: remaining, isInMemory: inMemory, sortsByKey: sortsByKey)
        }
        guard remaining.isEmpty, orderTerms != nil else {
            return statement("SELECT \(selectList(table)) FROM \(table.name) t0\(whereClause)\(order)", inMemory: true)
        }
        let limit = request.pageSize == .max ? -1 : request.pageSize
        let page = " LIMIT \(limit) OFFSET \(max(request.fetchOffset, 0))"
        let isWhole = request.pageSize == .max && request.fetchOffset <= 0
        // Results come in primary-key order when nothing else orders them. For a whole result
        // the keys are sorted here rather than by SQL: `ORDER BY Z_PK` makes SQLite scan the
        // table in key order instead of searching an index for the condition.
        let sortsByKey = isWhole && request.sortDescriptors.isEmpty
        let sqlOrder = sortsByKey ? "" : order
        switch request.resultType {
        case .count:
            // Without a limit or an offset the count needs no subquery, and with no
            // condition SQLite counts the table's b-tree instead of stepping through its rows.
            return statement(
                isWhole
                    ? "SELECT count(*) FROM \(table.name) t0\(whereClause)"
                    : "SELECT count(*) FROM (SELECT 1 FROM \(table.name) t0\(whereClause)\(page))")
        case .objectIDs:
            return statement(
                "SELECT t0.Z_PK, t0.Z_ENT FROM \(table.name) t0\(whereClause)\(sqlOrder)\(page)", sortsByKey: sortsByKey
            )
        case .snapshots:
            return statement(
                "SELECT \(selectList(table)) FROM \(table.name) t0\(whereClause)\(sqlOrder)\(page)",
                sortsByKey: sortsByKey)
        }
    }

    /// The `WHERE` conditions selecting the objects of `entity` (and of its sub-entities when
    /// `includingSubentities`) in `table` that meet the parts of `predicate`'s top-level `AND`
    /// that translate, with the R-tree conditions they allow; and the parts left for the
    /// caller to evaluate or refuse.
    ///
    /// The parts that do not translate but read only stored attributes, up to the first that
    /// reads more, are evaluated row by row by `strata_evaluate` (the translator's
    /// ``SQLitePredicateTranslator/rowEvaluations``), once the other conditions hold: the
    /// core's evaluator sees the rows it would have seen in memory.
    func selection(
        of entity: EntitySchema, includingSubentities: Bool, in table: SQLiteSchema.EntityTable,
        where predicate: FetchPredicate?, translator: inout SQLitePredicateTranslator
    ) -> (conditions: [String], remaining: [FetchPredicate]) {
        let firstParameter = translator.parameters.count
        let kinds = entity.names(includingSubentities: includingSubentities)
        var conditions = entityCondition(kinds, in: table).map { [$0] } ?? []
        var remaining: [FetchPredicate] = []
        let parts = predicate?.conjuncts ?? []
        for part in parts {
            if let condition = translator.condition(for: part) {
                conditions.append("(\(condition))")
            } else {
                remaining.append(part)
            }
        }
        conditions += rTrees.conditions(for: parts, entity: entity, translator: &translator)
        let evaluable = remaining.prefix(while: translator.canEvaluate)
        guard !evaluable.isEmpty,
            let call = translator.evaluatedCondition(
                for: evaluable.count == 1 ? evaluable[0] : .and(Array(evaluable)))
        else { return (conditions, remaining) }
        if conditions.isEmpty {
            conditions.append(call)
        } else {
            translator.bindAgain(from: firstParameter)
            conditions.append("CASE WHEN \(conditions.joined(separator: " AND ")) THEN \(call) ELSE 0 END")
        }
        return (conditions, Array(remaining.dropFirst(evaluable.count)))
    }

    /// Puts `elements` in the order of their IDs' primary keys. A scan of a whole table gives
    /// its rows in that order already, which is checked before anything is sorted.
    private static func putInKeyOrder<Element>(_ elements: inout [Element], by id: (Element) -> ObjectID) {
        let isInOrder = elements.indices.dropFirst().allSatisfy {
            !primaryKeyOrder(id(elements[$0]), id(elements[$0 - 1]))
        }
        if !isInOrder { elements.sort { primaryKeyOrder(id($0), id($1)) } }
    }

    /// Whether `a`'s primary key comes before `b`'s; IDs of one table, made by this store.
    private static func primaryKeyOrder(_ a: ObjectID, _ b: ObjectID) -> Bool {
        guard case .integer(let first) = a.reference, case .integer(let second) = b.reference else { return false }
        return first < second
    }
}
