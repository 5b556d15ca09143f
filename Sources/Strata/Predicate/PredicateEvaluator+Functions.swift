import Foundation

extension PredicateEvaluator {
    /// The result of the function `name` applied to `arguments`.
    ///
    /// The functions, by their Core Data names (a one-argument name may also end in `:`,
    /// as `lowercase:`):
    /// - `now()`: the evaluator's current date, the same for every object of one evaluation.
    /// - `lowercase(s)`, `uppercase(s)`: the string with Unicode case mapping, independent
    ///   of any locale.
    /// - `canonical:(s)`: the string without case or diacritics (`"Émile"` gives `"emile"`), as
    ///   Core Data's derived attributes compute it.
    /// - `abs(x)`: the absolute value.
    /// - `add:to:(a, b)`, `from:subtract:(a, b)`, `multiply:by:(a, b)`,
    ///   `divide:by:(a, b)`, `modulus:by:(a, b)`, `raise:toPower:(a, b)`: `a + b`, `a - b`,
    ///   `a * b`, `a / b`, the remainder of `a / b` (with the sign of `a`), `a ** b`. Integers
    ///   compute exactly (a decimal on overflow; a power that overflows, or a negative power, is
    ///   a `double`), division of integers or decimals gives a decimal, and any floating-point
    ///   operand gives a `double`. Dividing an integer or decimal by zero is an error. A date
    ///   plus or minus a number of seconds is a date; a date minus a date is the seconds
    ///   between them.
    /// - `count:`, `sum:`, `average:`, `min:`, `max:` of a collection: as the collection
    ///   operators `@count`, `@sum`, `@avg`, `@min`, `@max`.
    /// - The mathematical, bitwise, statistical, random and index-hint functions of
    ///   ``callMoreFunctions(_:with:label:)``.
    /// - `FUNCTION(target, "selector", arguments…)`: `valueForKey:` or `valueForKeyPath:` on
    ///   any object, another selector on an ``ExpressionFunctionTarget`` (such as a migration's
    ///   `$entityPolicy`); `CAST("Name", "Class")` is the class registered as `Name` in
    ///   ``classes``.
    ///
    /// A null argument gives null.
    ///
    /// - Throws: `FetchPredicateError` with code `.evaluation` for an unknown function, a wrong
    ///   number of arguments, or an argument of the wrong kind.
    func call(_ name: String, with arguments: [EvaluatedValue], label: @autoclosure () -> String)
        throws(FetchPredicateError)
        -> EvaluatedValue
    {
        let function = Self.functionKey(name)
        switch function {
        case "FUNCTION":
            return try callOnTarget(arguments, label: label())
        case "CAST" where Self.castsToClass(arguments):
            return try classReference(arguments, label: label())
        case "now":
            try Self.expect(arguments, count: 0, label: label())
            return .value(.date(now))
        case "lowercase", "uppercase":
            try Self.expect(arguments, count: 1, label: label())
            switch arguments[0] {
            case .value(.null): return .value(.null)
            case .value(.string(let string)):
                return .value(.string(function == "lowercase" ? string.lowercased() : string.uppercased()))
            case let other: throw Self.wrongArgument(other, expected: "a string", label: label())
            }
        case "canonical":
            try Self.expect(arguments, count: 1, label: label())
            switch arguments[0] {
            case .value(.null): return .value(.null)
            case .value(.string(let string)):
                return .value(.string(AttributeValue.normalized(string, [.caseInsensitive, .diacriticInsensitive])))
            case let other: throw Self.wrongArgument(other, expected: "a string", label: label())
            }
        case "abs":
            try Self.expect(arguments, count: 1, label: label())
            guard let number = try Self.number(arguments[0], label: label()) else { return .value(.null) }
            return .value(number.magnitude.attributeValue)
        default:
            if let operation = Arithmetic(rawValue: function) {
                try Self.expect(arguments, count: 2, label: label())
                return .value(try Self.arithmetic(operation, arguments[0], arguments[1], label: label()))
            }
            if let collectionOperator = Self.aggregateFunctions[function] {
                try Self.expect(arguments, count: 1, label: label())
                return try collectionOperator.apply(to: arguments[0], label: label())
            }
            if let result = try callMoreFunctions(function, with: arguments, label: label()) { return result }
            throw FetchPredicateError(
                code: .evaluation,
                message: "'\(label())' calls the unknown function '\(name)'; the evaluator knows now, lowercase, "
                    + "uppercase, abs, add:to:, from:subtract:, multiply:by:, divide:by:, modulus:by:, "
                    + "raise:toPower:, count:, sum:, average:, min:, max:, "
                    + Self.moreFunctionNames.map { $0.contains(":") ? $0 : $0 + ":" }.joined(separator: ", ") + "."
            )
        }
    }

    /// The functions computing a collection operator, by name.
    private static let aggregateFunctions: [String: CollectionOperator] = [
        "count": .count, "sum": .sum, "average": .average, "min": .minimum, "max": .maximum,
    ]

    /// `operation` of `a` and `b`: date arithmetic when a date takes part, null when either
    /// side is null, otherwise the numbers' exact result.
    static func arithmetic(
        _ operation: Arithmetic, _ a: EvaluatedValue, _ b: EvaluatedValue, label: @autoclosure () -> String
    ) throws(FetchPredicateError) -> AttributeValue {
        if let result = try dateArithmetic(operation, a, b, label: label()) { return result }
        guard let x = try number(a, label: label()), let y = try number(b, label: label()) else { return .null }
        return try operation.apply(x, y, label: label()).attributeValue
    }

    /// The two-argument arithmetic functions.
    enum Arithmetic: String {
        case add = "add:to:"
        case subtract = "from:subtract:"
        case multiply = "multiply:by:"
        case divide = "divide:by:"
        case modulus = "modulus:by:"
        case power = "raise:toPower:"

        func apply(_ a: NumericValue, _ b: NumericValue, label: @autoclosure () -> String) throws(FetchPredicateError)
            -> NumericValue
        {
            switch self {
            case .add: return a + b
            case .subtract: return a - b
            case .multiply: return a * b
            case .divide:
                guard let quotient = a / b else {
                    throw FetchPredicateError(code: .evaluation, message: "'\(label())' divides by zero.")
                }
                return quotient
            case .modulus:
                guard let remainder = NumericValue.remainder(a, b) else {
                    throw FetchPredicateError(code: .evaluation, message: "'\(label())' takes a remainder by zero.")
                }
                return remainder
            case .power: return NumericValue.power(a, b)
            }
        }
    }

    /// `a + b` or `a - b` when a date takes part: a date plus or minus a number of seconds is a
    /// date, a date minus a date the seconds between them (a `double`); `nil` when neither
    /// side is a date.
    ///
    /// - Throws: `.evaluation` for any other operation on a date, or a date with a non-number.
    private static func dateArithmetic(
        _ operation: Arithmetic, _ a: EvaluatedValue, _ b: EvaluatedValue, label: @autoclosure () -> String
    ) throws(FetchPredicateError) -> AttributeValue? {
        func date(_ value: EvaluatedValue) -> Date? {
            guard case .value(.date(let date)) = value else { return nil }
            return date
        }
        let (dateA, dateB) = (date(a), date(b))
        guard dateA != nil || dateB != nil else { return nil }
        if a.scalar?.isNull == true || b.scalar?.isNull == true { return .null }
        switch (operation, dateA, dateB) {
        case (.subtract, let x?, let y?):
            return .double(x.timeIntervalSince(y))
        case (.add, let x?, nil), (.subtract, let x?, nil):
            guard let seconds = try number(b, label: label())?.doubleValue else { return .null }
            return .date(x.addingTimeInterval(operation == .add ? seconds : -seconds))
        case (.add, nil, let y?):
            guard let seconds = try number(a, label: label())?.doubleValue else { return .null }
            return .date(y.addingTimeInterval(seconds))
        default:
            throw FetchPredicateError(
                code: .evaluation,
                message: "'\(label())' uses a date in \(operation.rawValue); dates take only + and - of seconds, and "
                    + "- of another date.")
        }
    }

    /// A function's name with the trailing `:` of a one-argument name removed.
    static func functionKey(_ name: String) -> String {
        guard name.utf8.last == UInt8(ascii: ":"), name.utf8.count(where: { $0 == UInt8(ascii: ":") }) == 1 else {
            return name
        }
        return String(name.dropLast())
    }

    static func expect(_ arguments: [EvaluatedValue], count: Int, label: @autoclosure () -> String)
        throws(FetchPredicateError)
    {
        guard arguments.count != count else { return }
        throw FetchPredicateError(
            code: .evaluation,
            message: "'\(label())' passes \(arguments.count) arguments to a function that takes \(count)."
        )
    }

    /// The argument as a number; `nil` when it is null.
    static func number(_ argument: EvaluatedValue, label: @autoclosure () -> String) throws(FetchPredicateError)
        -> NumericValue?
    {
        if case .value(.null) = argument { return nil }
        guard case .value(let value) = argument, let number = value.numericValue else {
            throw wrongArgument(argument, expected: "a number", label: label())
        }
        return number
    }

    static func wrongArgument(_ argument: EvaluatedValue, expected: String, label: @autoclosure () -> String)
        -> FetchPredicateError
    {
        FetchPredicateError(
            code: .evaluation,
            message: "'\(label())' passes \(argument.kindDescription) to a function that needs \(expected)."
        )
    }
}
