import Foundation

/// Evaluates predicates and expressions against ``KeyValueResolving`` objects in memory,
/// with the semantics documented on ``FetchPredicate/evaluate(with:variables:)``.
///
/// One evaluator serves a whole fetch: it compiles each `LIKE` and `MATCHES` pattern once
/// and answers `now()` with the same date for every object.
final class PredicateEvaluator {
    /// The values of `$VARIABLE`s, keyed by name without the `$`.
    let variables: [String: AttributeValue]
    /// The date `now()` returns.
    let now: Date
    /// Compiled string patterns.
    var patterns: [PatternKey: StringPattern] = [:]
    /// The classes `CAST("Name", "Class")` may name, by name.
    var classes: [String: any ExpressionFunctionTarget] = [:]

    /// Creates an evaluator with the given variable values and clock reading.
    init(variables: [String: AttributeValue] = [:], now: Date = Date()) {
        self.variables = variables
        self.now = now
    }
}

@available(*, unavailable) extension PredicateEvaluator: Sendable {}

/// The object a predicate is evaluated against, and the `SUBQUERY` variables bound around it.
struct EvaluationScope {
    /// What `SELF` and bare key paths refer to: the evaluated object, or the current
    /// element inside a `SUBQUERY`.
    var evaluatedObject: EvaluatedValue
    /// Subquery variables, by name without the `$`.
    var bindings: [String: EvaluatedValue] = [:]
}
