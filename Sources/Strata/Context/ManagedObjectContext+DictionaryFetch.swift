import OrderedCollections

/// Dictionary fetches: chosen properties, computed values, groups with aggregates, distinct
/// rows. The core evaluates them on the matching objects, so they work with every store.
extension ManagedObjectContext {
    /// One row per object `request` matches (as ``fetch(_:)`` matches them): its
    /// ``FetchRequest/propertiesToFetch`` (every attribute and to-one relationship when `nil`)
    /// and ``FetchRequest/expressionsToFetch``, by name; to-one relationships as object IDs.
    ///
    /// With ``FetchRequest/propertiesToGroupBy``, or an aggregate among the expressions
    /// (``ExpressionDescription``), one row per group instead (one row for all objects
    /// without grouping), kept when ``FetchRequest/havingPredicate`` holds for it. With
    /// ``FetchRequest/returnsDistinctResults``, rows equal to an earlier one are left out.
    /// Rows come in the order of their first object; the offset and limit count rows.
    ///
    /// - Throws: as ``fetch(_:)``; ``ContextError/Code/unknownKey`` for a property the entity
    ///   lacks; ``ContextError/Code/invalidRequest`` for a property to fetch that a grouped
    ///   fetch neither groups by nor aggregates, or a having-predicate without grouping; an
    ///   expression's evaluation error.
    public func fetchDictionaries<Result>(_ request: FetchRequest<Result>) throws -> [[String: AttributeValue]] {
        assertOnQueue()
        return try coordinator.observing(coordinator.operation(.fetch, on: request.entityName)) { outcome in
            let rows = try fetchRows(request)
            outcome.objects = rows.count
            return rows
        }
    }

    private func fetchRows<Result>(_ request: FetchRequest<Result>) throws -> [[String: AttributeValue]] {
        let entity = try entitySchema(named: request.entityName)
        let groups = request.propertiesToGroupBy
        let isGrouped = groups != nil || request.expressionsToFetch.contains { $0.aggregate != nil }
        let keys =
            request.propertiesToFetch
            ?? (isGrouped
                ? groups ?? []
                : entity.attributes.map(\.name) + entity.relationships.filter { !$0.isToMany }.map(\.name))
        try checkShape(of: request, keys: keys, grouping: isGrouped)
        if let rows = try rowsFromStore(request, keys: keys, entity: entity, grouping: isGrouped) { return rows }
        var whole = request
        let pagesRows = isGrouped || request.returnsDistinctResults
        if pagesRows {
            whole.fetchOffset = 0
            whole.fetchLimit = nil
        }
        let objects = try matchingObjects(whole, loadingValues: false)
        var rows =
            isGrouped
            ? try groupedRows(objects, by: groups ?? [], keys: keys, expressions: request.expressionsToFetch)
            : try objects.map { object in try row(of: object, keys: keys, expressions: request.expressionsToFetch) }
        if let having = request.havingPredicate {
            rows = try rows.filter { row in
                try having.evaluate(with: KeyValueRecord(row.mapValues { ResolvedValue.value($0) }))
            }
        }
        if request.returnsDistinctResults {
            var seen: Set<[String: AttributeValue]> = []
            rows = rows.filter { seen.insert($0).inserted }
        }
        guard pagesRows else { return rows }
        let limit = StoreFetchRequest.effectiveLimit(request.fetchLimit) ?? .max
        return Array(rows.dropFirst(max(request.fetchOffset, 0)).prefix(max(limit, 0)))
    }

    /// The rows as the one store holding the entity computes them (``StoreDictionaryFetch``),
    /// when its answer is the one the objects give: the context has no unsaved change and reads
    /// the latest state, the store evaluates the predicate, and every key is a stored attribute
    /// or to-one relationship and every expression an aggregate of one attribute. `nil`
    /// otherwise. A having-predicate is applied here, and the offset and limit after it.
    private func rowsFromStore<Result>(
        _ request: FetchRequest<Result>, keys: [String], entity: EntitySchema, grouping: Bool
    ) throws -> [[String: AttributeValue]]? {
        // Distinct groups are groups made distinct again, after the having-predicate: the core's.
        guard !hasChanges, !(grouping && request.returnsDistinctResults),
            let (store, storeRequest) = try plan(request).direct(.objectIDs),
            try reads(of: store) === store
        else { return nil }
        func isStoredAttribute(_ key: String) -> Bool { entity.attributesByName[key].map { !$0.isTransient } ?? false }
        var columns: [StoreDictionaryFetch.Column] = []
        for key in keys {
            let isToOne = entity.relationshipsByName[key].map { !$0.isToMany && !$0.isTransient } ?? false
            guard isStoredAttribute(key) || isToOne else { return nil }
            columns.append(.property(key))
        }
        for description in request.expressionsToFetch {
            guard let (function, argument) = description.aggregate,
                let aggregate = StoreDictionaryFetch.Aggregate(rawValue: PredicateEvaluator.functionKey(function)),
                case .keyPath(let attribute) = argument, isStoredAttribute(attribute)
            else { return nil }
            columns.append(.aggregate(aggregate, attribute: attribute, name: description.name))
        }
        let groups = request.propertiesToGroupBy ?? (grouping ? [] : nil)
        guard (groups ?? []).allSatisfy(isStoredAttribute) else { return nil }
        let having = request.havingPredicate
        let fetch = StoreDictionaryFetch(
            entityName: request.entityName, includesSubentities: request.includesSubentities,
            predicate: storeRequest.predicate, sortDescriptors: request.sortDescriptors, columns: columns,
            groupBy: groups,
            returnsDistinctResults: request.returnsDistinctResults,
            fetchOffset: having == nil ? request.fetchOffset : 0, fetchLimit: having == nil ? request.fetchLimit : nil)
        guard let rows = try store.executeDictionaryFetch(fetch) else { return nil }
        guard let having else { return rows }
        let kept = try rows.filter { row in
            try having.evaluate(with: KeyValueRecord(row.mapValues { ResolvedValue.value($0) }))
        }
        let limit = StoreFetchRequest.effectiveLimit(request.fetchLimit) ?? .max
        return Array(kept.dropFirst(max(request.fetchOffset, 0)).prefix(max(limit, 0)))
    }

    /// Refuses what a grouped fetch cannot answer.
    private func checkShape<Result>(of request: FetchRequest<Result>, keys: [String], grouping: Bool) throws {
        if request.havingPredicate != nil && request.propertiesToGroupBy == nil {
            throw ContextError(
                code: .invalidRequest,
                message: "A fetch of '\(request.entityName)' has a having-predicate but no properties to group by.")
        }
        guard grouping else { return }
        let grouped = Set(request.propertiesToGroupBy ?? [])
        for key in keys where !grouped.contains(key) {
            throw ContextError(
                code: .invalidRequest,
                message: "A grouped or aggregating fetch of '\(request.entityName)' fetches '\(key)', which it neither "
                    + "groups by nor aggregates; fetch only the properties to group by and aggregate expressions.")
        }
        for expression in request.expressionsToFetch
        where expression.aggregate == nil && request.propertiesToGroupBy == nil {
            throw ContextError(
                code: .invalidRequest,
                message: "An aggregating fetch of '\(request.entityName)' also fetches '\(expression.name)', which is "
                    + "not an aggregate; group by properties, or fetch aggregates only.")
        }
    }

    /// The row of one object.
    private func row(
        of object: ManagedObject, keys: [String], expressions: [ExpressionDescription]
    ) throws -> [String: AttributeValue] {
        var row: [String: AttributeValue] = [:]
        for key in keys { row[key] = try object.value(forKeyPath: key) }
        for description in expressions { row[description.name] = try description.expression.value(with: object) }
        return row
    }

    /// One row per group of `objects` by the values of `groupKeys` (one group of them all
    /// when there are none), in the order of each group's first object.
    private func groupedRows(
        _ objects: [ManagedObject], by groupKeys: [String], keys: [String], expressions: [ExpressionDescription]
    ) throws -> [[String: AttributeValue]] {
        var groups: OrderedDictionary<[AttributeValue], [ManagedObject]> = groupKeys.isEmpty ? [[]: []] : [:]
        for object in objects {
            groups[try groupKeys.map { try object.value(forKeyPath: $0) }, default: []].append(object)
        }
        let evaluator = PredicateEvaluator(variables: [:])
        return try groups.map { values, members in
            var row: [String: AttributeValue] = [:]
            for (key, value) in zip(groupKeys, values) where keys.contains(key) { row[key] = value }
            for description in expressions {
                guard let (function, argument) = description.aggregate else {
                    row[description.name] =
                        try members.first.map { try description.expression.value(with: $0) } ?? .null
                    continue
                }
                // Aggregates leave out nulls, as SQL's do.
                let values = try members.map { try argument.value(with: $0) }.filter { !$0.isNull }
                let result = try evaluator.call(
                    function, with: [.collection(values.map(EvaluatedValue.value))], label: description.name)
                guard case .value(let value) = result else {
                    throw FetchPredicateError(
                        code: .evaluation, message: "'\(description.name)' does not give one value.")
                }
                row[description.name] = value
            }
            return row
        }
    }
}
