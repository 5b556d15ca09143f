import Foundation
import Testing

@testable import Strata

@Suite struct PredicateEvaluatorFunctionsTests: EvaluationTesting {
    private func call(_ name: String, _ arguments: FetchExpression...) throws(FetchPredicateError) -> AttributeValue? {
        let evaluator = PredicateEvaluator(now: Date(timeIntervalSinceReferenceDate: 1000))
        let scope = EvaluationScope(evaluatedObject: .object(EvaluationFixtures.book()))
        return try evaluator.evaluate(.function(name, arguments), in: scope).scalar
    }

    @Test func nowIsTheEvaluatorsDate() throws {
        #expect(try call("now") == .date(Date(timeIntervalSinceReferenceDate: 1000)))
        let before = Date()
        #expect(try holdsForBook(comparison(.keyPath("published"), .lessThan, .function("now", []))))
        #expect(
            try comparison(.function("now", []), .greaterThanOrEqualTo, constant(before)).evaluate(
                with: KeyValueRecord([:])))
    }

    @Test func caseMapping() throws {
        #expect(try call("lowercase", constant("DüNE ß")) == .string("düne ß"))
        #expect(try call("uppercase", constant("straße")) == .string("STRASSE"))
        #expect(try call("lowercase:", .keyPath("title")) == .string("dune"))
        #expect(try call("uppercase", .constant(.null)) == .null)
        #expect(try holdsForBook(comparison(.function("uppercase", [.keyPath("title")]), .equalTo, constant("DUNE"))))
    }

    @Test func absoluteValue() throws {
        #expect(try call("abs", constant(Int16(-3))) == .integer64(3))
        #expect(try call("abs", constant(-2.5)) == .double(2.5))
        #expect(try call("abs", constant(Decimal(string: "-0.1")!)) == .decimal(Decimal(string: "0.1")!))
        #expect(try call("abs", constant(Int64.min)) == .decimal(-Decimal(Int64.min)))
        #expect(try call("abs", .constant(.null)) == .null)
    }

    @Test func arithmetic() throws {
        #expect(try call("add:to:", constant(2), constant(Int16(3))) == .integer64(5))
        #expect(try call("add:to:", constant(2), constant(0.5)) == .double(2.5))
        #expect(try call("add:to:", constant(Int64.max), constant(1)) == .decimal(Decimal(Int64.max) + 1))
        #expect(try call("from:subtract:", constant(2), constant(5)) == .integer64(-3))
        #expect(try call("from:subtract:", constant(Int64.min), constant(1)) == .decimal(Decimal(Int64.min) - 1))
        #expect(try call("multiply:by:", constant(4), constant(Decimal(string: "0.25")!)) == .integer64(1))
        #expect(try call("multiply:by:", constant(Int64.max), constant(2)) == .decimal(Decimal(Int64.max) * 2))
        #expect(try call("divide:by:", constant(7), constant(2)) == .decimal(Decimal(string: "3.5")!))
        #expect(try call("divide:by:", constant(1.0), constant(0.0)) == .double(.infinity))
        #expect(try call("add:to:", .constant(.null), constant(1)) == .null)
        #expect(try call("add:to:", .keyPath("pages"), constant(1)) == .integer64(413))
        #expect(
            try holdsForBook(
                comparison(.function("multiply:by:", [.keyPath("price"), constant(2)]), .equalTo, constant(19.98))))
    }

    @Test func divisionOfExactNumbersByZeroIsAnError() {
        for divisor in [constant(0), constant(Decimal(0)), constant(false)] {
            let error = predicateError { () throws(FetchPredicateError) -> Bool in
                try call("divide:by:", constant(1), divisor) != nil
            }
            #expect(error?.code == .evaluation)
            #expect(error?.message.contains("divides by zero") == true)
        }
    }

    @Test func aggregateFunctions() throws {
        let numbers = FetchExpression.aggregate([constant(1), constant(4), .constant(.null)])
        #expect(try call("count:", numbers) == .integer64(3))
        #expect(try call("sum:", numbers) == .integer64(5))
        #expect(try call("average:", numbers) == .decimal(Decimal(string: "2.5")!))
        #expect(try call("min:", numbers) == .integer64(1))
        #expect(try call("max", numbers) == .integer64(4))
        #expect(try call("sum:", .keyPath("items.price")) == .double(5.5))
    }

    @Test func unknownFunctionIsAnErrorNamingIt() {
        let error = predicateError { () throws(FetchPredicateError) -> Bool in
            try call("reverse:", constant("abc")) != nil
        }
        #expect(error?.code == .evaluation)
        #expect(error?.message.contains("'reverse:'") == true)
    }

    @Test func wrongArgumentsAreErrors() {
        let cases: [(String, [FetchExpression])] = [
            ("now", [constant(1)]),
            ("lowercase", []),
            ("lowercase", [constant(1)]),
            ("abs", [constant("x")]),
            ("add:to:", [constant(1)]),
            ("add:to:", [constant(1), constant("2")]),
            ("sum:", [constant(1)]),
            ("sum:", [.aggregate([constant("a")])]),
        ]
        for (name, arguments) in cases {
            let error = predicateError { () throws(FetchPredicateError) -> Bool in
                try holdsForBook(comparison(.function(name, arguments), .equalTo, constant(0)))
            }
            #expect(error?.code == .evaluation, "\(name)")
            #expect(error?.message.contains(name) == true, "\(error?.message ?? "no error")")
        }
    }
}
