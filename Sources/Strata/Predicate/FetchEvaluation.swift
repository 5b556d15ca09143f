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

    /// The value of `expression` for `object`; an object reached through a to-one
    /// relationship is its ID.
    ///
    /// - Throws: `FetchPredicateError` with code `.evaluation` also when the expression gives
    ///   a collection rather than one value.
    public func value(of expression: FetchExpression, for object: any KeyValueResolving)
        throws(FetchPredicateError) -> AttributeValue
    {
        switch try evaluator.evaluate(expression, in: EvaluationScope(evaluatedObject: .object(object))) {
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
