extension PredicateEvaluator {
    /// The value of `expression` in `scope`.
    ///
    /// - Throws: `FetchPredicateError` with code `.unknownVariable` for a variable that has no
    ///   value, or `.evaluation` for an unknown key, collection operator or function.
    func evaluate(_ expression: FetchExpression, in scope: EvaluationScope) throws(FetchPredicateError)
        -> EvaluatedValue
    {
        switch expression {
        case .evaluatedObject:
            return scope.evaluatedObject
        case .keyPath(let path):
            return try scope.evaluatedObject.value(atKeyPath: path, label: path)
        case .keyPathOn(let base, let path):
            let start = try evaluate(base, in: scope)
            return try start.value(atKeyPath: path, label: expression.evaluationLabel)
        case .constant(let value):
            return .value(value)
        case .variable(let name):
            return try variable(named: name, in: scope)
        case .aggregate(let elements):
            var values: [EvaluatedValue] = []
            for element in elements { values.append(try evaluate(element, in: scope)) }
            return .collection(values)
        case .function(let name, let arguments):
            var values: [EvaluatedValue] = []
            for argument in arguments { values.append(try evaluate(argument, in: scope)) }
            return try call(name, with: values, label: expression.evaluationLabel)
        case .subquery(let collection, let variable, let predicate):
            return try subquery(collection, variable: variable, predicate: predicate, in: scope)
        case .conditional(let condition, let then, let otherwise):
            return try evaluate(try evaluate(condition, in: scope) ? then : otherwise, in: scope)
        }
    }

    /// The value of a `$VARIABLE`: a bound subquery variable first, then the evaluator's
    /// variables. A leading `$` in `name` is ignored.
    private func variable(named name: String, in scope: EvaluationScope) throws(FetchPredicateError) -> EvaluatedValue {
        let key = Self.variableKey(name)
        if let bound = scope.bindings[key] { return bound }
        if let value = variables[key] { return .value(value) }
        throw FetchPredicateError(
            code: .unknownVariable,
            message: "The predicate uses the variable $\(key), but no value was given for it; pass it in `variables`."
        )
    }

    /// A variable's name without its leading `$`.
    static func variableKey(_ name: String) -> String {
        name.hasPrefix("$") ? String(name.dropFirst()) : name
    }

    /// The elements of `collection` for which `predicate` holds, with `$variable` (and
    /// `SELF`) standing for each element in turn. A null collection (reached through an
    /// empty to-one relationship) has no elements.
    private func subquery(
        _ collection: FetchExpression, variable: String, predicate: FetchPredicate, in scope: EvaluationScope
    ) throws(FetchPredicateError) -> EvaluatedValue {
        let elements: [EvaluatedValue]
        switch try evaluate(collection, in: scope) {
        case .collection(let values): elements = values
        case .value(.null): elements = []
        case let other:
            throw FetchPredicateError(
                code: .evaluation,
                message: "SUBQUERY needs a collection, but '\(collection.evaluationLabel)' is \(other.kindDescription)."
            )
        }
        var inner = scope
        var matches: [EvaluatedValue] = []
        for element in elements {
            inner.bindings[Self.variableKey(variable)] = element
            inner.evaluatedObject = element
            if try evaluate(predicate, in: inner) { matches.append(element) }
        }
        return .collection(matches)
    }
}
