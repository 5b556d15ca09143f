import Foundation
import Testing

@testable import Strata

/// A prepared expression gives, row after row, exactly what the evaluator gives for an object
/// with the same values: the same results and the same errors.
@Suite struct PreparedExpressionTests {
    private static let keys = ["count", "price", "born", "name", "ratio"]

    private static let rows: [[AttributeValue]] = [
        [.integer64(3), .double(2.5), .date(Date(timeIntervalSinceReferenceDate: 100)), .string("Ann"), .decimal(1.5)],
        [.integer64(.max), .double(-0.0), .null, .string(""), .decimal(0)],
        [.null, .double(.nan), .date(Date(timeIntervalSinceReferenceDate: -5)), .null, .null],
        [
            .integer64(0), .double(.infinity), .date(Date(timeIntervalSinceReferenceDate: 0)), .string("x"),
            .decimal(-2),
        ],
    ]

    static let formats = [
        "count + 1", "count * 2 + price", "-count", "count ** 2", "count / 2", "count / count",
        "modulus:by:(count, 2)", "price * 3 - 1", "born + 60", "born - born", "born * 2", "ratio * count",
        "TERNARY(count > 1, price, count)", "abs(price) + count", "lowercase(name)", "name + 1", "count + missing",
        "count", "42", "now() - now()", "{1, 2}",
    ]

    @Test(arguments: formats)
    func givesTheEvaluatorsAnswerForEveryRow(_ format: String) throws {
        let expression = try FetchExpression(format: format)
        let evaluation = FetchEvaluation()
        let prepared = evaluation.prepare(expression, keys: Self.keys)
        for values in Self.rows {
            let record = KeyValueRecord(
                Dictionary(uniqueKeysWithValues: zip(Self.keys, values.map { ResolvedValue.value($0) })))
            let expected = Result { () throws(FetchPredicateError) in try evaluation.value(of: expression, for: record)
            }
            let actual = Result { () throws(FetchPredicateError) in try prepared.value(with: values) }
            switch (expected, actual) {
            case (.success(let a), .success(let b)):
                #expect(a == b || (a.isNaN && b.isNaN), "\(format) with \(values)")
            case (.failure(let a), .failure(let b)):
                #expect(a.code == b.code && a.message == b.message, "\(format) with \(values)")
            default:
                Issue.record("\(format) with \(values): the evaluator gives \(expected), the prepared form \(actual)")
            }
        }
    }

    @Test func aRowPredicateReadsOnlyItsKeys() throws {
        let evaluation = FetchEvaluation()
        let predicate = try FetchPredicate(format: "count * 2 > price")
        #expect(try evaluation.holds(predicate, keys: ["count", "price"], values: [.integer64(2), .double(3)]))
        #expect(try !evaluation.holds(predicate, keys: ["count", "price"], values: [.null, .double(3)]))
        let error = try #require(throws: FetchPredicateError.self) {
            try evaluation.holds(predicate, keys: ["count"], values: [.integer64(2)])
        }
        #expect(error.code == .evaluation)
        #expect(error.message.contains("price"))
    }

    @Test func randomExpressionsAreNotPlain() throws {
        #expect(try FetchPredicate(format: "count * 2 > price").plainKeys == ["count", "price"])
        #expect(try FetchPredicate(format: "random() > 0.5 AND count > 1").plainKeys == nil)
        #expect(try FetchExpression(format: "SELF").plainKeys == nil)
    }
}

extension AttributeValue {
    fileprivate var isNaN: Bool {
        if case .double(let number) = self { return number.isNaN }
        return false
    }
}
