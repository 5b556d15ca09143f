import Foundation

extension PredicateEvaluator {
    /// Whether `comparison` holds in `scope`; see ``FetchPredicate/evaluate(with:variables:)``.
    func evaluate(_ comparison: ComparisonPredicate, in scope: EvaluationScope) throws(FetchPredicateError) -> Bool {
        let left = try evaluate(comparison.left, in: scope)
        let right = try evaluate(comparison.right, in: scope)
        switch comparison.modifier {
        case .direct:
            return try compare(left, right, comparison)
        case .any:
            for element in try quantifiedElements(left, comparison) {
                if try compare(element, right, comparison) { return true }
            }
            return false
        case .all:
            for element in try quantifiedElements(left, comparison) {
                if !(try compare(element, right, comparison)) { return false }
            }
            return true
        }
    }

    /// The elements `ANY` or `ALL` range over: a collection's elements; none for null.
    private func quantifiedElements(
        _ left: EvaluatedValue, _ comparison: ComparisonPredicate
    ) throws(FetchPredicateError) -> [EvaluatedValue] {
        switch left {
        case .collection(let elements): return elements
        case .value(.null): return []
        default:
            throw FetchPredicateError(
                code: .evaluation,
                message: "In '\(comparison.evaluationLabel)', ANY and ALL need a collection on the left, "
                    + "but '\(comparison.left.evaluationLabel)' is \(left.kindDescription)."
            )
        }
    }

    /// Whether `left operator right` holds, once the modifier has been applied.
    private func compare(
        _ left: EvaluatedValue, _ right: EvaluatedValue, _ comparison: ComparisonPredicate
    ) throws(FetchPredicateError) -> Bool {
        let options = comparison.options
        switch comparison.operator {
        case .in:
            if case .collection(let elements) = right {
                return try contains(elements, try scalar(left, side: .left, comparison), comparison)
            }
            return try match(.substring, text: right, textSide: .right, argument: left, comparison)
        case .contains:
            if case .collection(let elements) = left {
                return try contains(elements, try scalar(right, side: .right, comparison), comparison)
            }
            return try match(.substring, text: left, textSide: .left, argument: right, comparison)
        case .beginsWith:
            return try match(.prefix, text: left, textSide: .left, argument: right, comparison)
        case .endsWith:
            return try match(.suffix, text: left, textSide: .left, argument: right, comparison)
        case .like:
            return try match(.like, text: left, textSide: .left, argument: right, comparison)
        case .matches:
            return try match(.regularExpression, text: left, textSide: .left, argument: right, comparison)
        case .between:
            return try between(try scalar(left, side: .left, comparison), right, comparison)
        case .equalTo:
            return Self.equal(
                try scalar(left, side: .left, comparison), try scalar(right, side: .right, comparison), options)
        case .notEqualTo:
            return !Self.equal(
                try scalar(left, side: .left, comparison), try scalar(right, side: .right, comparison), options)
        case .lessThan:
            return try order(left, right, comparison, allowing: [.orderedAscending])
        case .lessThanOrEqualTo:
            return try order(left, right, comparison, allowing: [.orderedAscending, .orderedSame])
        case .greaterThan:
            return try order(left, right, comparison, allowing: [.orderedDescending])
        case .greaterThanOrEqualTo:
            return try order(left, right, comparison, allowing: [.orderedDescending, .orderedSame])
        }
    }

    /// Whether two values are equal for `==`: null equals only null; anything else is
    /// equal when ``AttributeValue/compare(_:options:)`` finds them the same (so NaN equals
    /// nothing, and values of unrelated kinds are never equal).
    static func equal(_ left: AttributeValue, _ right: AttributeValue, _ options: StringComparisonOptions) -> Bool {
        if left.isNull || right.isNull { return left.isNull && right.isNull }
        return left.compare(right, options: options) == .orderedSame
    }

    /// Whether the order of `left` and `right` is one of `allowed`; false when either is
    /// null or they cannot be ordered.
    private func order(
        _ left: EvaluatedValue, _ right: EvaluatedValue, _ comparison: ComparisonPredicate,
        allowing allowed: Set<ComparisonResult>
    ) throws(FetchPredicateError) -> Bool {
        let a = try scalar(left, side: .left, comparison)
        let b = try scalar(right, side: .right, comparison)
        if a.isNull || b.isNull { return false }
        guard let result = a.compare(b, options: comparison.options) else { return false }
        return allowed.contains(result)
    }

    /// Whether any of `elements` equals `value`.
    private func contains(
        _ elements: [EvaluatedValue], _ value: AttributeValue, _ comparison: ComparisonPredicate
    ) throws(FetchPredicateError) -> Bool {
        for element in elements {
            guard let candidate = element.scalar else {
                throw FetchPredicateError(
                    code: .evaluation,
                    message: "In '\(comparison.evaluationLabel)', the collection holds another collection."
                )
            }
            if Self.equal(value, candidate, comparison.options) { return true }
        }
        return false
    }

    /// Whether `value` lies between the two bounds of `bounds`, both included.
    private func between(
        _ value: AttributeValue, _ bounds: EvaluatedValue, _ comparison: ComparisonPredicate
    ) throws(FetchPredicateError) -> Bool {
        guard case .collection(let pair) = bounds, pair.count == 2, let low = pair[0].scalar, let high = pair[1].scalar
        else {
            throw FetchPredicateError(
                code: .evaluation,
                message: "In '\(comparison.evaluationLabel)', BETWEEN needs a pair {low, high} on the right, "
                    + "but '\(comparison.right.evaluationLabel)' is \(bounds.kindDescription)."
            )
        }
        if value.isNull || low.isNull || high.isNull { return false }
        guard let fromLow = value.compare(low, options: comparison.options),
            let toHigh = value.compare(high, options: comparison.options)
        else { return false }
        return fromLow != .orderedAscending && toHigh != .orderedDescending
    }

    /// A side of a comparison.
    enum Side: String {
        case left, right
    }

    /// The value to compare on one side: the value, or an object's identity.
    ///
    /// - Throws: `FetchPredicateError` with code `.evaluation` when the side is a collection.
    func scalar(
        _ value: EvaluatedValue, side: Side, _ comparison: ComparisonPredicate
    ) throws(FetchPredicateError) -> AttributeValue {
        if let scalar = value.scalar { return scalar }
        let expression = side == .left ? comparison.left : comparison.right
        let advice =
            side == .left
            ? "quantify it with ANY or ALL, or reduce it with a collection operator such as @count"
            : "use IN, or reduce it with a collection operator such as @count"
        throw FetchPredicateError(
            code: .evaluation,
            message: "In '\(comparison.evaluationLabel)', '\(expression.evaluationLabel)' is "
                + "\(value.kindDescription), which \(comparison.operator.rawValue) cannot compare directly; \(advice)."
        )
    }
}
