import Foundation

/// A key path's collection operator: `@count`, `@sum`, `@avg`, `@min`, `@max`, or one of the
/// union operators.
///
/// - `@count` counts the elements, nulls included; `@count` of an empty collection is 0.
/// - `@sum` adds the numbers, skipping nulls (as SQL's `SUM`); the sum of nothing is 0.
///   Integers add exactly (a decimal on `Int64` overflow), decimals stay decimal, and
///   anything with a floating-point number becomes a `double`.
/// - `@avg` is the sum divided by the count of numbers, skipping nulls (as SQL's `AVG`):
///   a decimal for integers and decimals, a `double` otherwise; null when there are no
///   numbers.
/// - `@min` and `@max` give the smallest and largest element under
///   ``AttributeValue/compare(_:options:)``, skipping nulls and NaN (numbers and dates); null when nothing is
///   left. The elements must be mutually ordered (all numbers, all strings, all dates…).
///
/// - `@distinctUnionOfObjects`, `@distinctUnionOfArrays`, `@distinctUnionOfSets` give the
///   collection without repeated elements, in first-seen order; `@unionOfObjects`,
///   `@unionOfArrays`, `@unionOfSets` give it as it is. Collections met on a key path are
///   already flattened, so the three of each kind agree.
///
/// Objects in the collection take part through their ``KeyValueResolving/objectIdentity``.
/// Applied to null (a collection reached through an empty to-one relationship), every
/// operator gives null.
enum CollectionOperator: String {
    case count = "@count"
    case sum = "@sum"
    case average = "@avg"
    case minimum = "@min"
    case maximum = "@max"
    case distinctUnionOfObjects = "@distinctUnionOfObjects"
    case distinctUnionOfArrays = "@distinctUnionOfArrays"
    case distinctUnionOfSets = "@distinctUnionOfSets"
    case unionOfObjects = "@unionOfObjects"
    case unionOfArrays = "@unionOfArrays"
    case unionOfSets = "@unionOfSets"

    /// Whether the operator is one of the union operators, which give a collection.
    var isUnion: Bool {
        switch self {
        case .count, .sum, .average, .minimum, .maximum: false
        default: true
        }
    }

    /// The operator applied to `operand`.
    ///
    /// - Parameter label: The expression as written, for error messages.
    /// - Throws: `FetchPredicateError` with code `.evaluation` when `operand` is not a
    ///   collection, or its elements do not fit the operator.
    func apply(to operand: EvaluatedValue, label: @autoclosure () -> String) throws(FetchPredicateError)
        -> EvaluatedValue
    {
        let elements: [EvaluatedValue]
        switch operand {
        case .value(.null): return .value(.null)
        case .collection(let values): elements = values
        default:
            throw FetchPredicateError(
                code: .evaluation,
                message: "'\(label())' applies \(rawValue) to \(operand.kindDescription); it needs a collection."
            )
        }
        switch self {
        case .count:
            return .value(.integer64(Int64(elements.count)))
        case .sum:
            return .value(try Self.sum(try Self.values(of: elements, label: label()), label: label()).attributeValue)
        case .average:
            let values = try Self.values(of: elements, label: label())
            if values.isEmpty { return .value(.null) }
            let total = try Self.sum(values, label: label())
            return .value((total / .integer(Int64(values.count)))?.attributeValue ?? .null)
        case .minimum, .maximum:
            let values = try Self.values(of: elements, label: label())
            let order: ComparisonResult = self == .minimum ? .orderedAscending : .orderedDescending
            return .value(try extreme(values, keeping: order, label: label()))
        case .unionOfObjects, .unionOfArrays, .unionOfSets:
            return .collection(elements)
        case .distinctUnionOfObjects, .distinctUnionOfArrays, .distinctUnionOfSets:
            var seen: Set<AttributeValue> = []
            var distinct: [EvaluatedValue] = []
            for element in elements {
                guard let value = element.scalar else {
                    throw FetchPredicateError(
                        code: .evaluation, message: "'\(label())' applies \(rawValue) to nested collections.")
                }
                if seen.insert(value).inserted { distinct.append(element) }
            }
            return .collection(distinct)
        }
    }

    /// The non-null values of `elements`, objects as their identities.
    private static func values(of elements: [EvaluatedValue], label: @autoclosure () -> String)
        throws(FetchPredicateError)
        -> [AttributeValue]
    {
        var values: [AttributeValue] = []
        for element in elements {
            guard let value = element.scalar else {
                throw FetchPredicateError(
                    code: .evaluation, message: "'\(label())' applies a collection operator to nested collections.")
            }
            if !value.isNull { values.append(value) }
        }
        return values
    }

    private static func sum(_ values: [AttributeValue], label: @autoclosure () -> String) throws(FetchPredicateError)
        -> NumericValue
    {
        var total = NumericValue.integer(0)
        for value in values {
            guard let number = value.numericValue else {
                throw FetchPredicateError(
                    code: .evaluation,
                    message: "'\(label())' adds up \(value.kindDescription), which is not a number."
                )
            }
            total = total + number
        }
        return total
    }

    /// Whether `value` is a NaN number, or a date a NaN number of seconds from the reference
    /// date: what `@min` and `@max` skip.
    private static func isNaN(_ value: AttributeValue) -> Bool {
        if case .date(let date) = value { return date.timeIntervalSinceReferenceDate.isNaN }
        return value.numericValue?.doubleValue.isNaN ?? false
    }

    private func extreme(
        _ values: [AttributeValue], keeping order: ComparisonResult, label: @autoclosure () -> String
    ) throws(FetchPredicateError) -> AttributeValue {
        var best: AttributeValue?
        for value in values where !Self.isNaN(value) {
            guard let current = best else {
                best = value
                continue
            }
            guard let result = value.compare(current) else {
                throw FetchPredicateError(
                    code: .evaluation,
                    message: "'\(label())' cannot apply \(rawValue): \(value.kindDescription) and "
                        + "\(current.kindDescription) cannot be ordered."
                )
            }
            if result == order { best = value }
        }
        return best ?? .null
    }
}
