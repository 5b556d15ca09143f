import Foundation

extension PredicateEvaluator {
    /// The names of the functions ``callMoreFunctions(_:with:label:)`` knows.
    static let moreFunctionNames = [
        "sqrt", "log", "ln", "exp", "ceiling", "floor", "trunc", "onesComplement", "bitwiseAnd:with:",
        "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:", "median", "mode", "stddev",
        "random", "randomn", "noindex", "indexed:by:", "objectFrom:withIndex:",
    ]

    /// The result of one of Core Data's other expression functions, or `nil` when `function`
    /// (its trailing `:` removed) is none of them:
    /// - `sqrt:`, `log:` (base 10), `ln:`, `exp:`: a `double`.
    /// - `ceiling:`, `floor:`, `trunc:`: an integer as it is, a decimal rounded as a decimal,
    ///   a floating-point number rounded as a `double`.
    /// - `onesComplement:`, `bitwiseAnd:with:`, `bitwiseOr:with:`, `bitwiseXor:with:`,
    ///   `leftshift:by:`, `rightshift:by:` (arithmetic): on integers.
    /// - `median:`, `mode:`, `stddev:` of a collection of numbers, nulls skipped: the middle
    ///   value (the mean of the two middle ones for an even count), the most frequent value
    ///   (the smallest of the most frequent), the population standard deviation; null for
    ///   an empty collection.
    /// - `random()`: a `double` in [0, 1); `randomn:(n)`: an integer in [0, n).
    /// - `noindex:(x)` and `indexed:by:(x, name)`: `x` (hints about indexes, which the store
    ///   planners read).
    /// - `objectFrom:withIndex:(collection, index)` (`collection[index]`): the element at an
    ///   integer index from 0, the first or last element for `"FIRST"` and `"LAST"` (null when
    ///   empty), the number of elements for `"SIZE"`; an index out of range is an error.
    ///
    /// A null argument gives null.
    func callMoreFunctions(
        _ function: String, with arguments: [EvaluatedValue], label: @autoclosure () -> String
    ) throws(FetchPredicateError) -> EvaluatedValue? {
        switch function {
        case "sqrt", "log", "ln", "exp":
            guard let x = try oneNumber(arguments, label: label()) else { return .value(.null) }
            let operations: [String: (Double) -> Double] = [
                "sqrt": { $0.squareRoot() }, "log": log10, "ln": log, "exp": exp,
            ]
            return .value(.double(operations[function]!(x.doubleValue)))
        case "ceiling", "floor", "trunc":
            guard let x = try oneNumber(arguments, label: label()) else { return .value(.null) }
            let rule: FloatingPointRoundingRule =
                function == "ceiling" ? .up : function == "floor" ? .down : .towardZero
            return .value(Self.rounded(x, rule).attributeValue)
        case "onesComplement":
            guard let x = try oneInteger(arguments, label: label()) else { return .value(.null) }
            return .value(.integer64(~x))
        case "bitwiseAnd:with:", "bitwiseOr:with:", "bitwiseXor:with:", "leftshift:by:", "rightshift:by:":
            try Self.expect(arguments, count: 2, label: label())
            guard let a = try Self.integer(arguments[0], label: label()),
                let b = try Self.integer(arguments[1], label: label())
            else { return .value(.null) }
            switch function {
            case "bitwiseAnd:with:": return .value(.integer64(a & b))
            case "bitwiseOr:with:": return .value(.integer64(a | b))
            case "bitwiseXor:with:": return .value(.integer64(a ^ b))
            case "leftshift:by:": return .value(.integer64(a << b))
            default: return .value(.integer64(a >> b))
            }
        case "median", "mode", "stddev":
            try Self.expect(arguments, count: 1, label: label())
            return .value(try Self.statistic(function, of: arguments[0], label: label()))
        case "random":
            try Self.expect(arguments, count: 0, label: label())
            return .value(.double(Double.random(in: 0..<1)))
        case "randomn":
            guard let n = try oneInteger(arguments, label: label()) else { return .value(.null) }
            guard n > 0 else {
                throw FetchPredicateError(
                    code: .evaluation, message: "'\(label())' asks randomn: for \(n); it needs more than 0.")
            }
            return .value(.integer64(Int64.random(in: 0..<n)))
        case PredicateParser.indexFunction:
            try Self.expect(arguments, count: 2, label: label())
            return try Self.element(of: arguments[0], at: arguments[1], label: label())
        case "noindex":
            try Self.expect(arguments, count: 1, label: label())
            return arguments[0]
        case "indexed:by:":
            try Self.expect(arguments, count: 2, label: label())
            return arguments[0]
        default:
            return nil
        }
    }

    private func oneNumber(_ arguments: [EvaluatedValue], label: @autoclosure () -> String) throws(FetchPredicateError)
        -> NumericValue?
    {
        try Self.expect(arguments, count: 1, label: label())
        return try Self.number(arguments[0], label: label())
    }

    private func oneInteger(_ arguments: [EvaluatedValue], label: @autoclosure () -> String) throws(FetchPredicateError)
        -> Int64?
    {
        try Self.expect(arguments, count: 1, label: label())
        return try Self.integer(arguments[0], label: label())
    }

    /// The argument as an integer; `nil` when it is null.
    private static func integer(_ argument: EvaluatedValue, label: @autoclosure () -> String)
        throws(FetchPredicateError) -> Int64?
    {
        if case .value(.null) = argument { return nil }
        guard case .value(let value) = argument, case .integer(let number)? = value.numericValue else {
            throw Self.wrongArgument(argument, expected: "an integer", label: label())
        }
        return number
    }

    /// The element of `collection` at `index`, as ``callMoreFunctions(_:with:label:)`` says.
    private static func element(
        of collection: EvaluatedValue, at index: EvaluatedValue, label: @autoclosure () -> String
    ) throws(FetchPredicateError) -> EvaluatedValue {
        let elements: [EvaluatedValue]
        switch collection {
        case .value(.null): return .value(.null)
        case .collection(let values): elements = values
        default: throw Self.wrongArgument(collection, expected: "a collection", label: label())
        }
        switch index {
        case .value(.string("FIRST")): return elements.first ?? .value(.null)
        case .value(.string("LAST")): return elements.last ?? .value(.null)
        case .value(.string("SIZE")): return .value(.integer64(Int64(elements.count)))
        default:
            guard let position = try integer(index, label: label()) else { return .value(.null) }
            guard position >= 0, position < Int64(elements.count) else {
                throw FetchPredicateError(
                    code: .evaluation,
                    message: "'\(label())' asks for element \(position) of a collection of \(elements.count).")
            }
            return elements[Int(position)]
        }
    }

    /// `x` rounded by `rule`: integers as they are, decimals as decimals, others as doubles.
    private static func rounded(_ x: NumericValue, _ rule: FloatingPointRoundingRule) -> NumericValue {
        switch x {
        case .integer: return x
        case .floating(let value): return .floating(value.rounded(rule))
        case .decimal(var value):
            var result = Decimal()
            let mode: NSDecimalNumber.RoundingMode =
                switch rule {
                case .up: .up
                case .down: .down
                default: value < 0 ? .up : .down
                }
            NSDecimalRound(&result, &value, 0, mode)
            return .decimal(result)
        }
    }

    /// The median, mode or standard deviation of the numbers in `operand`.
    private static func statistic(
        _ function: String, of operand: EvaluatedValue, label: @autoclosure () -> String
    ) throws(FetchPredicateError) -> AttributeValue {
        let elements: [EvaluatedValue]
        switch operand {
        case .value(.null): return .null
        case .collection(let values): elements = values
        default: throw Self.wrongArgument(operand, expected: "a collection of numbers", label: label())
        }
        var numbers: [Double] = []
        var values: [AttributeValue] = []
        for element in elements {
            guard case .value(let value) = element else {
                throw Self.wrongArgument(operand, expected: "a collection of numbers", label: label())
            }
            if value.isNull { continue }
            guard let number = value.numericValue else {
                throw Self.wrongArgument(operand, expected: "a collection of numbers", label: label())
            }
            numbers.append(number.doubleValue)
            values.append(value)
        }
        guard !numbers.isEmpty else { return .null }
        switch function {
        case "median":
            let sorted = numbers.sorted()
            let middle = sorted.count / 2
            return .double(sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2)
        case "mode":
            var counts: [AttributeValue: Int] = [:]
            for value in values { counts[value, default: 0] += 1 }
            let most = counts.values.max() ?? 0
            let candidates = counts.filter { $0.value == most }.map(\.key)
            return candidates.min { ($0.numericValue?.doubleValue ?? 0) < ($1.numericValue?.doubleValue ?? 0) } ?? .null
        default:
            let mean = numbers.reduce(0, +) / Double(numbers.count)
            let variance = numbers.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(numbers.count)
            return .double(variance.squareRoot())
        }
    }
}
