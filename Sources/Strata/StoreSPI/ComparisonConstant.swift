/// The constant side of a comparison, as a store translating predicates into its query
/// language reads it: one value, or a list (`IN {…}`, `BETWEEN {…}`).
package enum ComparisonConstant {
    case value(AttributeValue)
    case list([AttributeValue])

    /// The constant `expression` is; `nil` when it is not a constant or a list of constants.
    package init?(_ expression: FetchExpression) {
        switch expression {
        case .constant(let value): self = .value(value)
        case .aggregate(let items):
            var values: [AttributeValue] = []
            for item in items {
                guard case .constant(let value) = item else { return nil }
                values.append(value)
            }
            self = .list(values)
        default: return nil
        }
    }
}

extension ComparisonPredicate.Operator {
    /// The operator that gives the same answer with its sides swapped (`>` for `<`); `nil` when
    /// there is none.
    package var withSidesSwapped: ComparisonPredicate.Operator? {
        switch self {
        case .equalTo, .notEqualTo: self
        case .lessThan: .greaterThan
        case .lessThanOrEqualTo: .greaterThanOrEqualTo
        case .greaterThan: .lessThan
        case .greaterThanOrEqualTo: .lessThanOrEqualTo
        default: nil
        }
    }
}
