import Foundation
import Testing

@testable import Strata

@Suite struct FetchPredicateFormatTests {
    /// A format that must not parse, the error code, and the character offset reported.
    struct Malformed: CustomTestStringConvertible, Sendable {
        var format: String
        var arguments: [any PredicateArgument] = []
        var code: FetchPredicateError.Code = .syntax
        var offset: Int?
        var testDescription: String { format.count > 60 ? String(format.prefix(60)) + "…" : format }
    }

    static let malformed: [Malformed] = [
        Malformed(format: "", offset: 0),
        Malformed(format: "   ", offset: 3),
        Malformed(format: "age >", offset: 5),
        Malformed(format: "a ==", offset: 4),
        Malformed(format: "a IN", offset: 4),
        Malformed(format: "(a == 1", offset: 7),
        Malformed(format: "a == 1 AND (b == 2", offset: 18),
        Malformed(format: "a == 1)", offset: 6),
        Malformed(format: "a == 1 b == 2", offset: 7),
        Malformed(format: "TRUEPREDICATE TRUEPREDICATE", offset: 14),
        Malformed(format: "a == 'unterminated", offset: 5),
        Malformed(format: "a == \"unterminated\\\"", offset: 5),
        Malformed(format: "a ==[x] 1", offset: 5),
        Malformed(format: "a ==[cn] 1", offset: 6),
        Malformed(format: "a ==[] 1", offset: 5),
        Malformed(format: "a ==[c 1", offset: 7),
        Malformed(format: "ANY", offset: 3),
        Malformed(format: "ALL ANY a == 1", offset: 4),
        Malformed(format: "NOT", offset: 3),
        Malformed(format: "SUBQUERY(a, x, b == 1)", offset: 12),
        Malformed(format: "SUBQUERY(items, $x) == 1", offset: 18),
        Malformed(format: "SUBQUERY(items, $x, $x.a == 1 == 1", offset: 30),
        Malformed(format: "a BETWEEN 1", offset: 10),
        Malformed(format: "a BETWEEN {1, 2, 3}", offset: 10),
        Malformed(format: "a == 1 AND", offset: 10),
        Malformed(format: "a == 'x' AND OR b == 1", offset: 13),
        Malformed(format: "== 1", offset: 0),
        Malformed(format: "a 1", offset: 2),
        Malformed(format: "a @count", offset: 2),
        Malformed(format: "a === 1", offset: 4),
        Malformed(format: "a == 1 & b == 2", offset: 7),
        Malformed(format: "a == 1 | b == 2", offset: 7),
        Malformed(format: "a ~ 1", offset: 2),
        Malformed(format: "a == {1, 2", offset: 10),
        Malformed(format: "a == {1 2}", offset: 8),
        Malformed(format: "a == lowercase(name", offset: 19),
        Malformed(format: "a.@foo == 1", offset: 2),
        Malformed(format: "a. == 1", offset: 3),
        Malformed(format: "a == 12abc", offset: 5),
        Malformed(format: "a == 0x", offset: 7),
        Malformed(format: "a == 0x1G", offset: 5),
        Malformed(format: "a == 99999999999999999999", offset: 5),
        Malformed(format: "a == -9223372036854775809", offset: 5),
        Malformed(format: "a == -", offset: 6),
        Malformed(format: "a == b -", offset: 8),
        Malformed(format: "a == %x", offset: 5),
        Malformed(format: "a == %", offset: 5),
        Malformed(format: "a == $", offset: 6),
        Malformed(format: "a == # b", offset: 6),
        Malformed(format: #"a == '\u12'"#, offset: 10),
        Malformed(format: #"a == '\uD800'"#, offset: 12),
        Malformed(format: #"a == '\uD800\u0041'"#, offset: 12),
        Malformed(format: #"a == '\uDC00\uD800'"#, offset: 6),
        Malformed(format: "a == CAST(1, 'Bogus')", offset: 13),
        Malformed(format: "a == CAST(1, Int16)", offset: 13),
        Malformed(format: "a == CAST('zz', 'UUID')", offset: 10),
        Malformed(format: "a == CAST(name, 'Int16')", offset: 10),
        Malformed(format: "a == CAST(70000, 'Int16')", offset: 10),
        Malformed(format: "a == CAST('abc', 'Data')", offset: 10),
        Malformed(format: "a == CAST('1.5x', 'Decimal')", offset: 10),
        Malformed(format: "a == CAST('http://x', 'ObjectID')", offset: 10),
        Malformed(format: "名前 == 'x' AND", offset: 13),
        Malformed(format: "e\u{301} == 'x' AND", offset: 12),
        Malformed(format: "a == %d", arguments: ["x"], code: .argument, offset: 5),
        Malformed(format: "a == %i", arguments: [1.5], code: .argument, offset: 5),
        Malformed(format: "a == %lld", arguments: [true], code: .argument, offset: 5),
        Malformed(format: "a == %f", arguments: ["1.5"], code: .argument, offset: 5),
        Malformed(format: "a == %lf", arguments: [false], code: .argument, offset: 5),
        Malformed(format: "%K == 1", arguments: [5], code: .argument, offset: 0),
        Malformed(format: "%K == 1", arguments: ["a b"], code: .argument, offset: 0),
        Malformed(format: "%K == 1", arguments: [""], code: .argument, offset: 0),
        Malformed(format: "%K == 1", arguments: ["a.@bogus"], code: .argument, offset: 0),
        Malformed(format: "a BETWEEN %@", arguments: [5], code: .argument, offset: 10),
        Malformed(format: "a BETWEEN %@", arguments: [[1, 2, 3]], code: .argument, offset: 10),
        Malformed(format: "a == %@", code: .argument, offset: 5),
        Malformed(format: "a == %@ AND b == %@", arguments: [1], code: .argument, offset: 17),
        Malformed(format: "a == %@", arguments: [1, 2], code: .argument, offset: nil),
        Malformed(format: "a == 1", arguments: [1], code: .argument, offset: nil),
        Malformed(
            format: String(repeating: "(", count: 10_000) + "a == 1" + String(repeating: ")", count: 10_000),
            offset: 500),
        Malformed(format: String(repeating: "(", count: 400) + "a", offset: 401),
        Malformed(format: String(repeating: "(", count: 400) + "a + 1)", offset: 406),
        Malformed(format: String(repeating: "NOT ", count: 10_000) + "a == 1", offset: 2000),
        Malformed(format: String(repeating: "!", count: 10_000) + "a == 1", offset: 500),
        Malformed(format: "a IN " + String(repeating: "{", count: 10_000), offset: 505),
        Malformed(format: "a == " + String(repeating: "f(", count: 10_000), offset: 1006),
        Malformed(format: String(repeating: "SUBQUERY(a, $x, ", count: 1000), offset: 8000),
    ]

    @Test(arguments: malformed) func malformedFormatsThrowWithTheirOffset(_ input: Malformed) {
        expectError(input.format, arguments: input.arguments, code: input.code, offset: input.offset)
    }

    @Test func syntaxErrorsNameTheOffsetTheExpectationAndTheFormat() throws {
        let error = try #require(expectError("age > 3 AND (name == 'x'", offset: 24))
        #expect(
            error.message
                == #"Syntax error: expected ')' at offset 24 in "age > 3 AND (name == 'x'"; found the end of the format."#
        )
        let operatorError = try #require(expectError("age IS 3", offset: 4))
        #expect(operatorError.message.contains("expected a comparison operator such as ==, <, IN or CONTAINS"))
        #expect(operatorError.message.contains("found 'IS'"))
    }

    @Test func longFormatsAreQuotedAroundTheError() throws {
        let format = String(repeating: "a == 1 AND ", count: 100) + "b =="
        let error = try #require(expectError(format, offset: format.count))
        #expect(error.message.count < 300)
        #expect(error.message.contains("b ==\""))
    }

    @Test func argumentErrorsNameThePlaceholder() throws {
        let missing = try #require(expectError("a == %@ AND b == %d", arguments: [1], code: .argument, offset: 17))
        #expect(missing.message.contains("placeholder 2 (%d at offset 17) has no argument"))
        let extra = try #require(expectError("a == %@", arguments: [1, 2], code: .argument, offset: nil))
        #expect(extra.message.contains("2 arguments given for 1 placeholder; argument 2 has no placeholder"))
        let wrong = try #require(expectError("a == %d", arguments: ["x"], code: .argument, offset: 5))
        #expect(
            wrong.message.contains(
                "placeholder 1 (%d at offset 5) needs an integer, but argument 1 is the string \"x\""))
    }

    @Test func nestingUpToTheLimitParses() throws {
        let depth = PredicateParser.maximumDepth
        let parentheses = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        #expect(try FetchPredicate(format: parentheses) == compare(key("a"), .equalTo, value(.integer64(1))))
        let nots = try FetchPredicate(format: String(repeating: "NOT ", count: depth) + "a == 1")
        #expect(try FetchPredicate(format: nots.description) == nots)
        let aggregates = try FetchPredicate(
            format: "a IN " + String(repeating: "{", count: depth) + String(repeating: "}", count: depth))
        #expect(try FetchPredicate(format: aggregates.description) == aggregates)
        let subqueries = try FetchPredicate(
            format: String(repeating: "SUBQUERY(a, $x, ", count: depth - 1) + "SUBQUERY(a, $x, TRUEPREDICATE)"
                + String(repeating: ".@count > 0)", count: depth - 1) + ".@count > 0")
        #expect(try FetchPredicate(format: subqueries.description) == subqueries)
        let sums = try FetchPredicate(
            format: String(repeating: "(", count: depth) + "a" + String(repeating: " + 1)", count: depth) + " > 0")
        #expect(try FetchPredicate(format: sums.description) == sums)
    }

    /// Each level's parentheses are first tried as a predicate, which fails only after the
    /// `SUBQUERY` inside them is parsed, then as an expression: without keeping what each
    /// parenthesis gave, the innermost level would be parsed 2^40 times.
    @Test func parenthesesTriedTwiceAtEveryLevelParseInLinearTime() throws {
        let depth = 40
        let format =
            String(repeating: "(SUBQUERY(a, $x, ", count: depth) + "TRUEPREDICATE"
            + String(repeating: ").@count) + 1 > 0", count: depth)
        let predicate = try FetchPredicate(format: format)
        #expect(try FetchPredicate(format: predicate.description) == predicate)
        let malformed =
            String(repeating: "(SUBQUERY(a, $x, ", count: depth) + "TRUEPREDICATE"
            + String(repeating: ").@count) + ", count: depth)
        #expect(throws: FetchPredicateError.self) { try FetchPredicate(format: malformed) }
    }

    @Test(arguments: [256, 512] as [Int])
    func deepNestingOnASmallStackIsAnErrorNotACrash(kilobytes: Int) {
        let depth = PredicateParser.maximumDepth
        let formats = [
            String(repeating: "SUBQUERY(a, $x, ", count: depth) + "TRUEPREDICATE",
            "a == " + String(repeating: "CAST(", count: depth),
            "a IN " + String(repeating: "{", count: depth),
            String(repeating: "(", count: depth) + "a == 1",
        ]
        let outcomes = onThread(stackSize: kilobytes * 1024) {
            formats.map { format -> FetchPredicateError? in
                do throws(FetchPredicateError) {
                    _ = try FetchPredicate(format: format)
                    return nil
                } catch {
                    return error
                }
            }
        }
        for outcome in outcomes {
            #expect(outcome?.code == .syntax)
            #expect(outcome?.message.contains("nesting too deep for this thread's stack") == true)
        }
        let shallow = onThread(stackSize: kilobytes * 1024) {
            try? FetchPredicate(format: "SUBQUERY(a, $x, SUBQUERY($x.b, $y, $y.c IN {1, {2}}).@count > 0).@count > 0")
        }
        #expect(shallow != nil)
    }

    @Test func variadicAndArrayArgumentsAgree() throws {
        let variadic = try FetchPredicate(format: "%K == %@ AND n > %d", "name", "x", 3)
        let array = try FetchPredicate(format: "%K == %@ AND n > %d", arguments: ["name", "x", 3])
        #expect(variadic == array)
        #expect(
            variadic
                == .and([
                    compare(key("name"), .equalTo, value(.string("x"))),
                    compare(key("n"), .greaterThan, value(.integer64(3))),
                ]))
    }
}
