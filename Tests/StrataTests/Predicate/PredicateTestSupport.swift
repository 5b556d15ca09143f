import Foundation
import Testing

@testable import Strata

/// A key path expression.
func key(_ path: String) -> FetchExpression { .keyPath(path) }

/// A constant expression.
func value(_ value: AttributeValue) -> FetchExpression { .constant(value) }

/// A direct comparison predicate.
func compare(
    _ left: FetchExpression, _ op: ComparisonPredicate.Operator, _ right: FetchExpression,
    _ modifier: ComparisonPredicate.Modifier = .direct, _ options: StringComparisonOptions = []
) -> FetchPredicate {
    .comparison(ComparisonPredicate(left, op, right, modifier: modifier, options: options))
}

/// Parses `format` and expects exactly `expected`: equal, and of the same kinds of constants
/// (their descriptions agree, and numbers of different kinds never describe alike).
func expectParse(
    _ format: String, arguments: [any PredicateArgument] = [], _ expected: FetchPredicate,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        let parsed = try FetchPredicate(format: format, arguments: arguments)
        #expect(parsed == expected, "\(format)", sourceLocation: sourceLocation)
        #expect(parsed.description == expected.description, "\(format)", sourceLocation: sourceLocation)
    } catch {
        Issue.record("\(format) did not parse: \(error)", sourceLocation: sourceLocation)
    }
}

/// Parses the expression `text` (as the right side of `SELF == text`) and expects `expected`.
func expectExpression(
    _ text: String, arguments: [any PredicateArgument] = [], _ expected: FetchExpression,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectParse(
        "SELF == " + text, arguments: arguments, compare(.evaluatedObject, .equalTo, expected),
        sourceLocation: sourceLocation)
}

/// Parses `format` and expects an error of `code` at character `offset`.
@discardableResult
func expectError(
    _ format: String, arguments: [any PredicateArgument] = [], code: FetchPredicateError.Code = .syntax,
    offset: Int?, sourceLocation: SourceLocation = #_sourceLocation
) -> FetchPredicateError? {
    do {
        let parsed = try FetchPredicate(format: format, arguments: arguments)
        Issue.record("\(format) parsed as \(parsed)", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error.code == code, "\(format): \(error.message)", sourceLocation: sourceLocation)
        #expect(error.offset == offset, "\(format): \(error.message)", sourceLocation: sourceLocation)
        return error
    }
}
