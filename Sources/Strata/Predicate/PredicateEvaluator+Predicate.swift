extension PredicateEvaluator {
    /// Whether `predicate` holds for `object`.
    ///
    /// - Throws: `FetchPredicateError` with code `.evaluation` or `.unknownVariable`.
    func evaluate(_ predicate: FetchPredicate, with object: any KeyValueResolving) throws(FetchPredicateError) -> Bool {
        try evaluate(predicate, in: EvaluationScope(evaluatedObject: .object(object)))
    }

    /// Whether `predicate` holds in `scope`. `AND` and `OR` stop at the first operand that
    /// decides the result; an empty `AND` holds and an empty `OR` does not.
    func evaluate(_ predicate: FetchPredicate, in scope: EvaluationScope) throws(FetchPredicateError) -> Bool {
        switch predicate {
        case .constant(let value):
            return value
        case .comparison(let comparison):
            return try evaluate(comparison, in: scope)
        case .and(let operands):
            for operand in operands {
                if !(try evaluate(operand, in: scope)) { return false }
            }
            return true
        case .or(let operands):
            for operand in operands {
                if try evaluate(operand, in: scope) { return true }
            }
            return false
        case .not(let operand):
            return !(try evaluate(operand, in: scope))
        }
    }
}
