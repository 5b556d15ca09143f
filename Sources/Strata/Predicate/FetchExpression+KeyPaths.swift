extension FetchExpression {
    /// The key paths the expression reads from the evaluated object, in order (`pages.@count`
    /// and `sum:(pages.number)` read `pages…`), those of a `TERNARY`'s condition included; key
    /// paths inside subqueries and on variables are left out. A tool checks them against a
    /// model to name a key the entity lacks before it fetches.
    public var keyPaths: [String] {
        switch self {
        case .keyPath(let path): [path]
        case .keyPathOn(let base, _): base.keyPaths
        case .aggregate(let elements), .function(_, let elements): elements.flatMap(\.keyPaths)
        case .subquery(let collection, _, _): collection.keyPaths
        case .conditional(let condition, let then, let otherwise):
            condition.keyPaths + then.keyPaths + otherwise.keyPaths
        case .evaluatedObject, .constant, .variable: []
        }
    }
}

extension FetchPredicate {
    /// The key paths the predicate's expressions read, as ``FetchExpression/keyPaths`` lists them.
    public var keyPaths: [String] {
        switch self {
        case .constant: []
        case .comparison(let comparison): comparison.left.keyPaths + comparison.right.keyPaths
        case .and(let parts), .or(let parts): parts.flatMap(\.keyPaths)
        case .not(let inner): inner.keyPaths
        }
    }
}
