/// One evaluation of predicates and expressions over many objects, as one fetch makes it:
/// each `LIKE` and `MATCHES` pattern is compiled once, and `now()` is the same date for every
/// object. A store that evaluates row by row what it cannot translate uses one evaluation per
/// statement.
///
/// Semantics and errors are those of ``FetchPredicate/evaluate(with:variables:)`` and
/// ``FetchExpression/value(with:variables:)``. An evaluation keeps its compiled patterns, so
/// it serves one thread at a time.
public struct FetchEvaluation {
    private let evaluator: PredicateEvaluator

    /// An evaluation with the given values of `$VARIABLE`s, by name without the `$`.
    public init(variables: [String: AttributeValue] = [:]) {
        evaluator = PredicateEvaluator(variables: variables)
    }

    /// Whether `predicate` holds for `object`.
    public func holds(_ predicate: FetchPredicate, for object: any KeyValueResolving) throws(FetchPredicateError)
        -> Bool
    {
        try evaluator.evaluate(predicate, with: object)
    }

    /// Whether `predicate` holds for the row whose values of `keys` are `values`, in order; a
    /// key outside `keys` is unknown, and `SELF` stands for null.
    public func holds(_ predicate: FetchPredicate, keys: [String], values: [AttributeValue])
        throws(FetchPredicateError) -> Bool
    {
        try evaluator.evaluate(predicate, with: KeyValueRow(keys: keys, values: values))
    }

    /// `expression` prepared for evaluating, in this evaluation, against rows giving the values
    /// of `keys` in order.
    public func prepare(_ expression: FetchExpression, keys: [String]) -> PreparedExpression {
        PreparedExpression(expression, keys: keys, evaluator: evaluator)
    }

    /// The value of `expression` for `object`; an object reached through a to-one
    /// relationship is its ID.
    ///
    /// - Throws: `FetchPredicateError` with code `.evaluation` also when the expression gives
    ///   a collection rather than one value.
    public func value(of expression: FetchExpression, for object: any KeyValueResolving)
        throws(FetchPredicateError) -> AttributeValue
    {
        try Self.singleValue(
            evaluator.evaluate(expression, in: EvaluationScope(evaluatedObject: .object(object))), of: expression)
    }

    /// `evaluated`, the value of `expression`, as one value: an object is its ID.
    ///
    /// - Throws: `FetchPredicateError` with code `.evaluation` for a collection, or an object
    ///   that is not a managed object.
    static func singleValue(_ evaluated: EvaluatedValue, of expression: FetchExpression) throws(FetchPredicateError)
        -> AttributeValue
    {
        switch evaluated {
        case .value(let value): return value
        case .object(let target as ManagedObject): return .objectID(target.objectID)
        case .object, .collection:
            throw FetchPredicateError(
                code: .evaluation,
                message: "The expression \(expression) gives an object or a collection, not one value.")
        }
    }
}

@available(*, unavailable) extension FetchEvaluation: Sendable {}
