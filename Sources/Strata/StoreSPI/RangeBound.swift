/// A bound a comparison puts on a number attribute of the evaluated object: what a store's
/// range indexes (SQLite's R-trees, PostgreSQL's GiST indexes on points) narrow a fetch by.
/// The comparison itself stays in the query; a bound only keeps rows that cannot match out.
package struct RangeBound: Sendable, Equatable {
    /// The attribute bounded.
    package let attribute: String
    /// Whether the bound is a lower one (`>`, `>=`, `==`, `BETWEEN`'s first value).
    package let isLower: Bool
    /// The bound: an integer, or a floating-point number that is not NaN.
    package let value: AttributeValue

    /// The bounds the comparisons among `parts` (a fetch's top-level conjuncts) put on
    /// attributes of the evaluated object, and the indexes their `indexed:by:` name.
    package static func bounds(ofConjuncts parts: [FetchPredicate]) -> (bounds: [RangeBound], indexNames: Set<String>) {
        var bounds: [RangeBound] = []
        var indexNames: Set<String> = []
        for part in parts {
            guard case .comparison(let comparison) = part else { continue }
            let found = Self.bounds(of: comparison)
            bounds += found.bounds
            if let name = found.indexName { indexNames.insert(name) }
        }
        return (bounds, indexNames)
    }

    /// The bounds `comparison` puts on attributes of the evaluated object, and the index an
    /// `indexed:by:(attribute, "index")` in it names. A comparison with options, a modifier,
    /// a key path through a relationship, or `noindex:` bounds nothing.
    static func bounds(of comparison: ComparisonPredicate) -> (bounds: [RangeBound], indexName: String?) {
        guard comparison.modifier == .direct, comparison.options.isEmpty else { return ([], nil) }
        var (left, right, op) = (comparison.left, comparison.right, comparison.operator)
        if case .constant = left, let flipped = op.withSidesSwapped {
            (left, right, op) = (right, left, flipped)
        }
        var indexName: String?
        if case .function("indexed:by:", let arguments) = left, arguments.count == 2,
            case .constant(.string(let name)) = arguments[1]
        {
            indexName = name
            left = arguments[0]
        }
        guard case .keyPath(let attribute) = left, !attribute.contains("."),
            let argument = ComparisonConstant(right)
        else { return ([], indexName) }
        func bound(_ value: AttributeValue, lower: Bool) -> RangeBound? {
            isNumber(value) ? RangeBound(attribute: attribute, isLower: lower, value: value) : nil
        }
        switch (op, argument) {
        case (.greaterThan, .value(let value)), (.greaterThanOrEqualTo, .value(let value)):
            return ([bound(value, lower: true)].compactMap { $0 }, indexName)
        case (.lessThan, .value(let value)), (.lessThanOrEqualTo, .value(let value)):
            return ([bound(value, lower: false)].compactMap { $0 }, indexName)
        case (.equalTo, .value(let value)):
            return ([bound(value, lower: true), bound(value, lower: false)].compactMap { $0 }, indexName)
        case (.between, .list(let values)) where values.count == 2:
            return ([bound(values[0], lower: true), bound(values[1], lower: false)].compactMap { $0 }, indexName)
        default:
            return ([], indexName)
        }
    }

    private static func isNumber(_ value: AttributeValue) -> Bool {
        switch value {
        case .integer16, .integer32, .integer64: true
        case .double(let n): !n.isNaN
        case .float(let n): !n.isNaN
        default: false
        }
    }
}
