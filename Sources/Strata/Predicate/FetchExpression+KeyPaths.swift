extension FetchExpression {
    /// The key paths the expression reads from the evaluated object, in order (`pages.@count`
    /// and `sum:(pages.number)` read `pages…`); key paths inside subqueries and on variables are
    /// left out.
    var keyPaths: [String] {
        switch self {
        case .keyPath(let path): [path]
        case .keyPathOn(let base, _): base.keyPaths
        case .aggregate(let elements), .function(_, let elements): elements.flatMap(\.keyPaths)
        case .subquery(let collection, _, _): collection.keyPaths
        case .conditional(_, let then, let otherwise): then.keyPaths + otherwise.keyPaths
        case .evaluatedObject, .constant, .variable: []
        }
    }
}
