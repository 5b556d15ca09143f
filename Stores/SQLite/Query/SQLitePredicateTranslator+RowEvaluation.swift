import Strata

extension SQLitePredicateTranslator {
    /// The condition that `predicate` holds, evaluated row by row by `strata_evaluate`
    /// (``SQLiteRowEvaluations``); `nil` when it reads more than stored attributes of the
    /// entity.
    func evaluatedCondition(for predicate: FetchPredicate) -> String? {
        guard let attributes = predicate.plainKeys.flatMap(evaluatedAttributes) else { return nil }
        return rowEvaluations.call(.predicate(predicate), reading: attributes)
    }

    /// Whether `strata_evaluate` can evaluate `predicate`: it reads only stored attributes of
    /// the entity.
    func canEvaluate(_ predicate: FetchPredicate) -> Bool {
        predicate.plainKeys.flatMap(evaluatedAttributes) != nil
    }

    /// The SQL computing `attribute`'s new value from `expression` row by row: with
    /// `strata_evaluate`, or, for a `double` computed by ``ExactArithmetic``, in SQL wherever
    /// SQL's answer is the evaluator's and with `strata_evaluate` elsewhere. `nil` when the
    /// expression reads more than stored attributes of the entity.
    mutating func evaluatedValue(of expression: FetchExpression, for attribute: AttributeDescription) -> String? {
        guard let attributes = expression.plainKeys.flatMap(evaluatedAttributes) else { return nil }
        let call = rowEvaluations.call(
            .value(expression, key: attribute.name, type: attribute.type, isOptional: attribute.isOptional),
            reading: attributes)
        guard attribute.type == .double, let exact = exactArithmetic(of: expression), exact.isReal else { return call }
        for constant in exact.constants + exact.constants { _ = bind(constant) }
        let guards = (exact.guards + ["\(exact.sql) != 0"]).joined(separator: " AND ")
        return "CASE WHEN \(guards) THEN \(exact.sql) ELSE \(call) END"
    }

    /// The columns of the attributes `keys` name, in the order of their keys; `nil` when a
    /// key is not a stored attribute of the entity.
    private func evaluatedAttributes(_ keys: Set<String>) -> [SQLiteRowEvaluations.Attribute]? {
        var attributes: [SQLiteRowEvaluations.Attribute] = []
        for key in keys.sorted() {
            guard let attribute = rowAttribute(key) else { return nil }
            attributes.append(attribute)
        }
        return attributes
    }

    /// The stored attribute `key` of the entity and its column in the query's row; `nil` when
    /// the entity has no such stored attribute, or its column holds external binary data.
    func rowAttribute(_ key: String) -> SQLiteRowEvaluations.Attribute? {
        let scope = root.object
        guard case .row(let alias) = scope.position, let attribute = scope.entity.attributesByName[key],
            !attribute.isTransient, !attribute.storesExternally,
            let index = layout.columnIndex(
                .attribute(entity: layout.declaringEntity(of: key, in: scope.entity, model: model), name: key),
                in: scope.table)
        else { return nil }
        let column = scope.table.columns[index].name
        return SQLiteRowEvaluations.Attribute(
            key: key, type: attribute.type, qualifiedName: "\(scope.entity.name).\(key)",
            storedName: "\(scope.table.name).\(column)", sql: "\(alias).\(column)")
    }
}
