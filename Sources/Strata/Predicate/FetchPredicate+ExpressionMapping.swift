extension FetchPredicate {
    /// The predicate with every expression `transform` replaces replaced: `transform` sees each
    /// expression before its parts and gives its replacement, or `nil` to keep it and look inside.
    func mappingExpressions(_ transform: (FetchExpression) throws -> FetchExpression?) rethrows -> FetchPredicate {
        switch self {
        case .constant: return self
        case .comparison(var comparison):
            comparison.left = try comparison.left.mapping(transform)
            comparison.right = try comparison.right.mapping(transform)
            return .comparison(comparison)
        case .and(let parts): return .and(try parts.map { try $0.mappingExpressions(transform) })
        case .or(let parts): return .or(try parts.map { try $0.mappingExpressions(transform) })
        case .not(let inner): return .not(try inner.mappingExpressions(transform))
        }
    }
}

extension FetchExpression {
    /// The expression with `transform` applied as ``FetchPredicate/mappingExpressions(_:)`` does.
    func mapping(_ transform: (FetchExpression) throws -> FetchExpression?) rethrows -> FetchExpression {
        if let replaced = try transform(self) { return replaced }
        switch self {
        case .evaluatedObject, .keyPath, .constant, .variable: return self
        case .keyPathOn(let base, let key): return .keyPathOn(try base.mapping(transform), key)
        case .aggregate(let elements): return .aggregate(try elements.map { try $0.mapping(transform) })
        case .function(let name, let arguments): return .function(name, try arguments.map { try $0.mapping(transform) })
        case .subquery(let collection, let variable, let predicate):
            return .subquery(
                collection: try collection.mapping(transform), variable: variable,
                predicate: try predicate.mappingExpressions(transform))
        case .conditional(let condition, let then, let otherwise):
            return .conditional(
                try condition.mappingExpressions(transform), then: try then.mapping(transform),
                else: try otherwise.mapping(transform))
        }
    }
}
