/// An expression prepared once for evaluating against many rows of values, each row giving
/// the values of the same keys in the same order: what a store evaluates for every row a
/// statement visits (a batch update's computed value).
///
/// Arithmetic of the row's values and of constants (`price * 1.1 + shipping`) runs the
/// evaluator's own arithmetic directly, without building an object per row; any other
/// expression is evaluated by the ``FetchEvaluation`` it was prepared in. The results and
/// errors are those of ``FetchEvaluation/value(of:for:)`` for an object with these values.
public final class PreparedExpression {
    /// Arithmetic of keys and constants only.
    private indirect enum Node {
        case key(Int)
        case constant(AttributeValue)
        /// Two-argument arithmetic, and the call it came from, for error messages.
        case arithmetic(PredicateEvaluator.Arithmetic, Node, Node, call: FetchExpression)
    }

    /// The arithmetic form; `nil` when the expression is evaluated as it is.
    private let root: Node?
    private let expression: FetchExpression
    private let keys: [String]
    private let evaluator: PredicateEvaluator

    init(_ expression: FetchExpression, keys: [String], evaluator: PredicateEvaluator) {
        self.expression = expression
        self.keys = keys
        self.evaluator = evaluator
        root = Self.node(for: expression, keys: keys)
    }

    private static func node(for expression: FetchExpression, keys: [String]) -> Node? {
        switch expression {
        case .keyPath(let key):
            return keys.firstIndex(of: key).map { .key($0) }
        case .constant(let value):
            return .constant(value)
        case .function(let name, let arguments) where arguments.count == 2:
            guard let operation = PredicateEvaluator.Arithmetic(rawValue: PredicateEvaluator.functionKey(name)),
                let a = node(for: arguments[0], keys: keys), let b = node(for: arguments[1], keys: keys)
            else { return nil }
            return .arithmetic(operation, a, b, call: expression)
        default:
            return nil
        }
    }

    /// The expression's value for the row whose values of the keys are `values`, in order.
    ///
    /// - Throws: `FetchPredicateError` as ``FetchEvaluation/value(of:for:)`` throws it.
    public func value(with values: [AttributeValue]) throws(FetchPredicateError) -> AttributeValue {
        if let root { return try evaluate(root, values) }
        let row = KeyValueRow(keys: keys, values: values)
        return try FetchEvaluation.singleValue(
            evaluator.evaluate(expression, in: EvaluationScope(evaluatedObject: .object(row))), of: expression)
    }

    private func evaluate(_ node: Node, _ values: [AttributeValue]) throws(FetchPredicateError) -> AttributeValue {
        switch node {
        case .key(let index):
            return values[index]
        case .constant(let value):
            return value
        case .arithmetic(let operation, let a, let b, let call):
            let (x, y) = (try evaluate(a, values), try evaluate(b, values))
            // Two numbers: what `PredicateEvaluator.arithmetic` comes to for them, without its
            // checks for dates, nulls and other kinds of value.
            if let first = x.numericValue, let second = y.numericValue {
                return try operation.apply(first, second, label: call.evaluationLabel).attributeValue
            }
            return try PredicateEvaluator.arithmetic(operation, .value(x), .value(y), label: call.evaluationLabel)
        }
    }
}

@available(*, unavailable) extension PreparedExpression: Sendable {}

/// One row's values of some keys, as the evaluator reads an object: a key outside them is
/// unknown.
struct KeyValueRow: KeyValueResolving {
    let keys: [String]
    let values: [AttributeValue]

    func resolvedValue(forKey key: String) -> ResolvedValue? {
        keys.firstIndex(of: key).map { .value(values[$0]) }
    }

    var objectIdentity: AttributeValue { .null }
}
