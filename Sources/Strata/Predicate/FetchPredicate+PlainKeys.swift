extension FetchPredicate {
    /// The keys the predicate reads, when it reads nothing but the values of single keys of
    /// the evaluated object (`price * quantity > 100`, `name BEGINSWITH "a"`) and gives the
    /// same answer every time, so that a store can evaluate it from one row's values, as often
    /// as it needs; `nil` when it reads `SELF`, a key path of more than one key or with a
    /// collection operator, a variable or a subquery, or calls `random` or `randomn:`.
    public var plainKeys: Set<String>? {
        var keys: Set<String> = []
        return collectPlainKeys(into: &keys) ? keys : nil
    }

    fileprivate func collectPlainKeys(into keys: inout Set<String>) -> Bool {
        switch self {
        case .constant: return true
        case .and(let parts), .or(let parts): return parts.allSatisfy { $0.collectPlainKeys(into: &keys) }
        case .not(let inner): return inner.collectPlainKeys(into: &keys)
        case .comparison(let comparison):
            return comparison.left.collectPlainKeys(into: &keys) && comparison.right.collectPlainKeys(into: &keys)
        }
    }
}

extension FetchExpression {
    /// The keys the expression reads, under the rules of ``FetchPredicate/plainKeys``.
    public var plainKeys: Set<String>? {
        var keys: Set<String> = []
        return collectPlainKeys(into: &keys) ? keys : nil
    }

    fileprivate func collectPlainKeys(into keys: inout Set<String>) -> Bool {
        switch self {
        case .constant: return true
        case .keyPath(let path):
            guard !path.contains("."), !path.hasPrefix("@"), !path.isEmpty else { return false }
            keys.insert(path)
            return true
        case .function(let name, _) where ["random", "randomn"].contains(PredicateEvaluator.functionKey(name)):
            return false
        case .aggregate(let elements), .function(_, let elements):
            return elements.allSatisfy { $0.collectPlainKeys(into: &keys) }
        case .conditional(let condition, let then, let otherwise):
            return condition.collectPlainKeys(into: &keys) && then.collectPlainKeys(into: &keys)
                && otherwise.collectPlainKeys(into: &keys)
        case .evaluatedObject, .keyPathOn, .variable, .subquery: return false
        }
    }
}
