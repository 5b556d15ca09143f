import Foundation
import Testing

@testable import Strata

/// Infix arithmetic in format strings: precedence and associativity, signs, parentheses in
/// expressions and at the start of a predicate, the printed form that parses back, and the
/// evaluation of powers and remainders.
@Suite struct PredicateArithmeticTests {
    private func call(_ name: String, _ a: FetchExpression, _ b: FetchExpression) -> FetchExpression {
        .function(name, [a, b])
    }

    private func int(_ number: Int64) -> FetchExpression { value(.integer64(number)) }

    @Test func operatorsBindAsInArithmetic() {
        expectExpression("a + b * c", call("add:to:", key("a"), call("multiply:by:", key("b"), key("c"))))
        expectExpression("a - b - c", call("from:subtract:", call("from:subtract:", key("a"), key("b")), key("c")))
        expectExpression("a / b * c", call("multiply:by:", call("divide:by:", key("a"), key("b")), key("c")))
        expectExpression(
            "a ** b ** c", call("raise:toPower:", key("a"), call("raise:toPower:", key("b"), key("c"))))
        expectExpression("2 * a ** 2", call("multiply:by:", int(2), call("raise:toPower:", key("a"), int(2))))
        expectExpression("(a + b) * c", call("multiply:by:", call("add:to:", key("a"), key("b")), key("c")))
        expectExpression("items.@count * 2", call("multiply:by:", key("items.@count"), int(2)))
    }

    @Test func signsApplyToOperandsAndMinusBeforeANumberIsPartOfIt() {
        expectExpression("-a", call("from:subtract:", int(0), key("a")))
        expectExpression("+a", key("a"))
        expectExpression("a - -3", call("from:subtract:", key("a"), int(-3)))
        expectExpression("-3 * a", call("multiply:by:", int(-3), key("a")))
        expectExpression("- (a + 1)", call("from:subtract:", int(0), call("add:to:", key("a"), int(1))))
        expectExpression("{1, -2}", .aggregate([int(1), int(-2)]))
    }

    @Test func aPredicateMayStartWithAParenthesizedExpression() {
        expectParse(
            "(price - discount) * 2 > 10",
            compare(
                call("multiply:by:", call("from:subtract:", key("price"), key("discount")), int(2)), .greaterThan,
                int(10)))
        expectParse(
            "(a > 1) AND (b + 1 < 3)",
            .and([
                compare(key("a"), .greaterThan, int(1)),
                compare(call("add:to:", key("b"), int(1)), .lessThan, int(3)),
            ]))
        expectParse("((a)) == 1", compare(key("a"), .equalTo, int(1)))
    }

    @Test func malformedArithmeticNamesThePosition() {
        expectError("a + > 3", offset: 4)
        expectError("a * (b + 1 > 3", offset: 11)
        expectError("(a > 1", offset: 6)
        expectError("a ** == 2", offset: 5)
    }

    @Test func theDescriptionIsInfixAndParsesBackToTheSameTree() throws {
        let cases = [
            ("price * quantity > 100", "price * quantity > 100"),
            ("(a + b) * (c - d) == 0", "(a + b) * (c - d) == 0"),
            ("a - (b - c) == a - b - c", "a - (b - c) == a - b - c"),
            ("(a ** b) ** c == a ** b ** c", "(a ** b) ** c == a ** b ** c"),
            ("-a < 0", "0 - a < 0"),
            ("(a + 1).b == 2", "(a + 1).b == 2"),
            ("abs(a - 3) <= 1", "abs(a - 3) <= 1"),
        ]
        for (format, printed) in cases {
            let predicate = try FetchPredicate(format: format)
            #expect(predicate.description == printed)
            #expect(try FetchPredicate(format: predicate.description) == predicate)
        }
    }

    @Test func expressionsEvaluateWithExactIntegersAndDecimalQuotients() throws {
        let order = KeyValueRecord([
            "price": .value(.double(12.5)), "quantity": .value(.integer64(9)), "discount": .value(.integer64(2)),
        ])
        #expect(try FetchPredicate(format: "price * quantity > 100").evaluate(with: order))
        #expect(try FetchPredicate(format: "(quantity - discount) / 2 == 3.5").evaluate(with: order))
        #expect(try FetchPredicate(format: "quantity ** 2 == 81 AND 2 ** -1 == 0.5").evaluate(with: order))
        #expect(try FetchPredicate(format: "-quantity == -9").evaluate(with: order))
        #expect(try FetchPredicate(format: "9223372036854775807 + 1 > 9223372036854775807").evaluate(with: order))
        #expect(
            try !FetchPredicate(format: "missing * 2 > 0").evaluate(with: KeyValueRecord(["missing": .value(.null)])))
    }

    @Test func powersAndRemainders() throws {
        let evaluator = PredicateEvaluator()
        let scope = EvaluationScope(evaluatedObject: .object(KeyValueRecord([:])))
        func evaluate(_ name: String, _ a: AttributeValue, _ b: AttributeValue) throws -> AttributeValue? {
            try evaluator.evaluate(.function(name, [.constant(a), .constant(b)]), in: scope).scalar
        }
        #expect(try evaluate("raise:toPower:", .integer64(3), .integer64(4)) == .integer64(81))
        #expect(try evaluate("raise:toPower:", .integer64(2), .integer64(63)) == .double(9_223_372_036_854_775_808))
        #expect(try evaluate("raise:toPower:", .integer64(-1), .integer64(1_000_001)) == .integer64(-1))
        #expect(try evaluate("raise:toPower:", .double(4), .double(0.5)) == .double(2))
        #expect(try evaluate("modulus:by:", .integer64(7), .integer64(-3)) == .integer64(1))
        #expect(try evaluate("modulus:by:", .integer64(-7), .integer64(3)) == .integer64(-1))
        #expect(try evaluate("modulus:by:", .integer64(Int64.min), .integer64(-1)) == .integer64(0))
        #expect(
            try evaluate("modulus:by:", .decimal(Decimal(string: "7.5")!), .integer64(2))
                == .decimal(Decimal(string: "1.5")!))
        #expect(try evaluate("modulus:by:", .double(7.5), .double(2)) == .double(1.5))
        let error = #expect(throws: FetchPredicateError.self) {
            try evaluate("modulus:by:", .integer64(7), .integer64(0))
        }
        #expect(error?.code == .evaluation)
    }

    @Test func datesTakeSecondsAndGiveTheSecondsBetweenThem() throws {
        let day = Date(timeIntervalSinceReferenceDate: 86_400)
        let record = KeyValueRecord(["published": .value(.date(day)), "missing": .value(.null)])
        #expect(
            try FetchPredicate(format: "published + 86400 == %@", day.addingTimeInterval(86_400)).evaluate(with: record)
        )
        #expect(try FetchPredicate(format: "60 + published - 60 == published").evaluate(with: record))
        #expect(
            try FetchPredicate(format: "now() - published > 0 AND published - published == 0").evaluate(with: record))
        #expect(try !FetchPredicate(format: "missing + 1 == published").evaluate(with: record))
        for format in ["published * 2 > 0", "published - 'x' > 0", "1 - published > 0"] {
            let error = #expect(throws: FetchPredicateError.self) {
                try FetchPredicate(format: format).evaluate(with: record)
            }
            #expect(error?.code == .evaluation, "\(format)")
        }
    }
}
