extension PredicateFeatures: CustomStringConvertible {
    /// Every feature with its name, in declaration order.
    public static let named: [(name: String, feature: PredicateFeatures)] = [
        ("comparisons", .comparisons), ("compounds", .compounds), ("membership", .membership),
        ("stringMatching", .stringMatching), ("stringOptions", .stringOptions),
        ("regularExpressions", .regularExpressions), ("relationshipKeyPaths", .relationshipKeyPaths),
        ("quantifiers", .quantifiers), ("collectionOperators", .collectionOperators), ("subqueries", .subqueries),
        ("functions", .functions),
    ]

    /// The names of the features in the set, in declaration order.
    public var names: [String] { Self.named.filter { contains($0.feature) }.map(\.name) }

    /// The names joined by commas, or `none`.
    public var description: String { names.isEmpty ? "none" : names.joined(separator: ", ") }
}
