/// `$VARIABLE`s: listing them and replacing them with values.
extension FetchPredicate {
    /// The names of the predicate's free `$VARIABLE`s, without the `$`.
    ///
    /// A `SUBQUERY`'s own variable (`$x` in `SUBQUERY(items, $x, $x.price > $MIN)`) is bound
    /// inside its predicate and is not listed; `MIN` is.
    ///
    /// - Complexity: O(*n*), where *n* is the size of the tree.
    public var variableNames: Set<String> {
        var names: Set<String> = []
        collectVariables(into: &names, bound: [])
        return names
    }

    /// The predicate with every free `$VARIABLE` replaced by the constant in `variables`.
    ///
    /// ```swift
    /// let template = try FetchPredicate(format: "author.name == $NAME AND year > $YEAR")
    /// let predicate = try template.substituting(["NAME": "Ada", "YEAR": .integer64(1840)])
    /// ```
    ///
    /// Variables bound by a `SUBQUERY` are left alone. `$x.name` becomes a key path on the
    /// constant. Entries of `variables` that the predicate does not use are ignored.
    ///
    /// - Throws: `FetchPredicateError` with code `.unknownVariable` naming the first variable that
    ///   has no value in `variables`.
    /// - Complexity: O(*n*), where *n* is the size of the tree.
    public func substituting(_ variables: [String: AttributeValue]) throws(FetchPredicateError) -> FetchPredicate {
        try substituting(variables, bound: [])
    }

    fileprivate func substituting(
        _ variables: [String: AttributeValue], bound: Set<String>
    ) throws(FetchPredicateError) -> FetchPredicate {
        switch self {
        case .constant:
            return self
        case .comparison(var comparison):
            comparison.left = try comparison.left.substituting(variables, bound: bound)
            comparison.right = try comparison.right.substituting(variables, bound: bound)
            return .comparison(comparison)
        case .and(let operands):
            return .and(try operands.substituting(variables, bound: bound))
        case .or(let operands):
            return .or(try operands.substituting(variables, bound: bound))
        case .not(let operand):
            return .not(try operand.substituting(variables, bound: bound))
        }
    }

    fileprivate func collectVariables(into names: inout Set<String>, bound: Set<String>) {
        switch self {
        case .constant:
            break
        case .comparison(let comparison):
            comparison.left.collectVariables(into: &names, bound: bound)
            comparison.right.collectVariables(into: &names, bound: bound)
        case .and(let operands), .or(let operands):
            for operand in operands { operand.collectVariables(into: &names, bound: bound) }
        case .not(let operand):
            operand.collectVariables(into: &names, bound: bound)
        }
    }
}

extension FetchExpression {
    fileprivate func substituting(
        _ variables: [String: AttributeValue], bound: Set<String>
    ) throws(FetchPredicateError) -> FetchExpression {
        switch self {
        case .evaluatedObject, .keyPath, .constant:
            return self
        case .variable(let name):
            if bound.contains(name) { return self }
            guard let value = variables[name] else {
                let known = variables.keys.sorted().map { "$" + $0 }.joined(separator: ", ")
                throw FetchPredicateError(
                    code: .unknownVariable,
                    message: "No value was given for the variable $\(name); the values given are for "
                        + (known.isEmpty ? "no variables" : known) + ".")
            }
            return .constant(value)
        case .keyPathOn(let base, let path):
            return .keyPathOn(try base.substituting(variables, bound: bound), path)
        case .aggregate(let elements):
            return .aggregate(try elements.substituting(variables, bound: bound))
        case .function(let name, let arguments):
            return .function(name, try arguments.substituting(variables, bound: bound))
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                collection: try collection.substituting(variables, bound: bound), variable: variable,
                predicate: try predicate.substituting(variables, bound: bound.union([variable])))
        case .conditional(let condition, let then, let otherwise):
            return .conditional(
                try condition.substituting(variables, bound: bound),
                then: try then.substituting(variables, bound: bound),
                else: try otherwise.substituting(variables, bound: bound))
        }
    }

    fileprivate func collectVariables(into names: inout Set<String>, bound: Set<String>) {
        switch self {
        case .evaluatedObject, .keyPath, .constant:
            break
        case .variable(let name):
            if !bound.contains(name) { names.insert(name) }
        case .keyPathOn(let base, _):
            base.collectVariables(into: &names, bound: bound)
        case .aggregate(let elements), .function(_, let elements):
            for element in elements { element.collectVariables(into: &names, bound: bound) }
        case .subquery(let collection, let variable, let predicate):
            collection.collectVariables(into: &names, bound: bound)
            predicate.collectVariables(into: &names, bound: bound.union([variable]))
        case .conditional(let condition, let then, let otherwise):
            condition.collectVariables(into: &names, bound: bound)
            then.collectVariables(into: &names, bound: bound)
            otherwise.collectVariables(into: &names, bound: bound)
        }
    }
}

extension [FetchPredicate] {
    fileprivate func substituting(
        _ variables: [String: AttributeValue], bound: Set<String>
    ) throws(FetchPredicateError) -> [FetchPredicate] {
        var result: [FetchPredicate] = []
        for element in self { result.append(try element.substituting(variables, bound: bound)) }
        return result
    }
}

extension [FetchExpression] {
    fileprivate func substituting(
        _ variables: [String: AttributeValue], bound: Set<String>
    ) throws(FetchPredicateError) -> [FetchExpression] {
        var result: [FetchExpression] = []
        for element in self { result.append(try element.substituting(variables, bound: bound)) }
        return result
    }
}
