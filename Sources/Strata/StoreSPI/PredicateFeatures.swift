/// The parts of predicate syntax a store can evaluate itself. The core evaluates in memory
/// whatever a store cannot, with the same results, so a store declares only what it
/// translates exactly.
public struct PredicateFeatures: OptionSet, Sendable, Hashable {
    /// The features as bits.
    public let rawValue: UInt32
    /// Creates features from their bits.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `==`, `!=`, `<`, `<=`, `>`, `>=` on attributes and to-one references, and constants.
    public static let comparisons = PredicateFeatures(rawValue: 1 << 0)
    /// `AND`, `OR`, `NOT`.
    public static let compounds = PredicateFeatures(rawValue: 1 << 1)
    /// `IN` and `BETWEEN`.
    public static let membership = PredicateFeatures(rawValue: 1 << 2)
    /// `BEGINSWITH`, `ENDSWITH`, `CONTAINS` on strings, and `LIKE`.
    public static let stringMatching = PredicateFeatures(rawValue: 1 << 3)
    /// `[c]` and `[d]`.
    public static let stringOptions = PredicateFeatures(rawValue: 1 << 4)
    /// `MATCHES`.
    public static let regularExpressions = PredicateFeatures(rawValue: 1 << 5)
    /// Key paths through relationships (`author.name`).
    public static let relationshipKeyPaths = PredicateFeatures(rawValue: 1 << 6)
    /// `ANY`, `ALL`, `NONE` over to-many relationships.
    public static let quantifiers = PredicateFeatures(rawValue: 1 << 7)
    /// `@count`, `@sum`, `@avg`, `@min`, `@max`.
    public static let collectionOperators = PredicateFeatures(rawValue: 1 << 8)
    /// `SUBQUERY`.
    public static let subqueries = PredicateFeatures(rawValue: 1 << 9)
    /// Function calls such as `now()`.
    public static let functions = PredicateFeatures(rawValue: 1 << 10)

    /// Every feature.
    public static let all = PredicateFeatures(rawValue: (1 << 11) - 1)
}

extension FetchPredicate {
    /// The features a store needs to evaluate this predicate itself.
    public var requiredFeatures: PredicateFeatures {
        switch self {
        case .constant: return []
        case .and(let parts), .or(let parts):
            return parts.reduce(into: [.compounds]) { $0.formUnion($1.requiredFeatures) }
        case .not(let inner): return inner.requiredFeatures.union(.compounds)
        case .comparison(let comparison): return comparison.requiredFeatures
        }
    }
}

extension ComparisonPredicate {
    /// The features a store needs to evaluate this comparison itself.
    var requiredFeatures: PredicateFeatures {
        var features = left.requiredFeatures.union(right.requiredFeatures)
        switch self.operator {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            features.insert(.comparisons)
        case .between, .in: features.insert(.membership)
        case .beginsWith, .endsWith, .contains, .like: features.insert(.stringMatching)
        case .matches: features.insert(.regularExpressions)
        }
        if !options.isEmpty { features.insert(.stringOptions) }
        if modifier != .direct { features.insert(.quantifiers) }
        return features
    }
}

extension FetchExpression {
    /// The features a store needs to compute this expression itself.
    var requiredFeatures: PredicateFeatures {
        switch self {
        case .evaluatedObject, .constant, .variable: return []
        case .keyPath(let path): return Self.features(ofKeyPath: path)
        case .keyPathOn(let base, let path): return base.requiredFeatures.union(Self.features(ofKeyPath: path))
        case .aggregate(let elements):
            return elements.reduce(into: []) { $0.formUnion($1.requiredFeatures) }
        case .function(_, let arguments):
            return arguments.reduce(into: [.functions]) { $0.formUnion($1.requiredFeatures) }
        case .subquery(let collection, _, let predicate):
            return collection.requiredFeatures.union(predicate.requiredFeatures).union(.subqueries)
        case .conditional(let condition, let then, let otherwise):
            return condition.requiredFeatures.union(then.requiredFeatures).union(otherwise.requiredFeatures)
                .union(.functions)
        }
    }

    private static func features(ofKeyPath path: String) -> PredicateFeatures {
        var features: PredicateFeatures = []
        let keys = path.split(separator: ".")
        if keys.contains(where: { $0.hasPrefix("@") }) { features.insert(.collectionOperators) }
        if keys.filter({ !$0.hasPrefix("@") }).count > 1 { features.insert(.relationshipKeyPaths) }
        return features
    }
}
