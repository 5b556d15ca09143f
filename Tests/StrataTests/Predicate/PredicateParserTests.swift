import Foundation
import Testing

@testable import Strata

@Suite struct PredicateParserTests {
    static let tokens = [
        "a", "b.c", "name", "items.@count", "@sum", "@bogus", ".", ",", "(", ")", "{", "}", "[", "]", "[c]", "[cd]",
        "[x]",
        "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "===", "&&", "||", "!", "&", "|", "-", "AND", "or",
        "NOT",
        "ANY", "some", "ALL", "NONE", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "nil",
        "NULL", "SELF", "YES", "no", "TRUEPREDICATE", "FALSEPREDICATE", "SUBQUERY(", "CAST(", "'Int16'", "\"NSDate\"",
        "$x", "$x.name", "$", "#in", "#", "%@", "%K", "%d", "%f", "%lld", "%x", "%", "1", "-1", "2.5", "1e3", "0x1F",
        "0x", "12abc", "99999999999999999999", "'str'", "\"q\\\"\"", "'unterminated", "'\\u00e9'", "'\\uD800'", "now()",
        "lowercase(", "\\", "~", "é", "名", "\u{301}", " ", " ", " ", "\n",
    ]
    static let arguments: [any PredicateArgument] = [
        "name", 1, 2.5, true, [1, 2], Set(["a"]), Optional<Int>.none, Date(timeIntervalSinceReferenceDate: 0), "a.b",
    ]

    /// A random string of predicate tokens and stray characters.
    static func randomFormat(_ random: inout SplitMix64) -> String {
        var format = ""
        for _ in 0..<Int.random(in: 0...14, using: &random) {
            if Int.random(in: 0..<10, using: &random) == 0 {
                format.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0...127, using: &random)))
            } else {
                format += tokens.randomElement(using: &random) ?? ""
                if Bool.random(using: &random) { format += " " }
            }
        }
        return format
    }

    static let operands: [(String, [any PredicateArgument])] = [
        ("a", []), ("b.c", []), ("items.@count", []), ("items.@avg.price", []), ("$x", []), ("$x.name", []),
        ("SELF", []), ("SELF.name", []), ("#in", []), ("1", []), ("-1", []), ("2.5", []), ("1e3", []), ("0x1F", []),
        ("'str'", []), ("\"q\\\"\"", []), ("'\\u00e9\\n'", []), ("nil", []), ("NULL", []), ("YES", []),
        ("false", []), ("now()", []), ("lowercase(a)", []), ("{1, 'a', $v}", []), ("{}", []), ("%@", ["x"]),
        ("%@", [[1, 2]]), ("%@", [Optional<Int>.none]), ("%K", ["k.@count"]), ("%d", [3]), ("%f", [1.5]),
        ("SUBQUERY(items, $y, $y.p > 1 AND $y.q == $V).@count", []), ("CAST(1, 'Int16')", []),
        ("CAST('00ff', 'Data')", []), ("CAST(3.5, 'NSDate')", []),
    ]
    static let operators = [
        "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "IN", "in", "BEGINSWITH", "endswith", "CONTAINS",
        "LIKE", "MATCHES",
    ]

    /// A random format that follows the grammar, with the arguments its placeholders need.
    static func structuredFormat(
        _ random: inout SplitMix64, depth: Int, into arguments: inout [any PredicateArgument]
    ) -> String {
        func operand() -> String {
            let (text, values) = operands.randomElement(using: &random) ?? ("a", [])
            arguments += values
            return text
        }
        let choice = depth > 0 ? Int.random(in: 0...9, using: &random) : 0
        switch choice {
        case 0...3:
            let quantifier = ["", "", "", "ANY ", "SOME ", "ALL ", "NONE "].randomElement(using: &random) ?? ""
            let left = operand()
            if Int.random(in: 0..<8, using: &random) == 0 {
                return "\(quantifier)\(left) BETWEEN {\(operand()), \(operand())}"
            }
            let op = operators.randomElement(using: &random) ?? "=="
            let options = ["", "", "[c]", "[d]", "[cd]", "[DC]"].randomElement(using: &random) ?? ""
            return "\(quantifier)\(left) \(op)\(options) \(operand())"
        case 4: return "(" + structuredFormat(&random, depth: depth - 1, into: &arguments) + ")"
        case 5:
            return ["NOT ", "!", "not "].randomElement(using: &random)!
                + structuredFormat(&random, depth: depth - 1, into: &arguments)
        case 6: return ["TRUEPREDICATE", "FALSEPREDICATE"].randomElement(using: &random)!
        default:
            let connective = [" AND ", " && ", " OR ", " || ", " and ", " or "].randomElement(using: &random)!
            let left = structuredFormat(&random, depth: depth - 1, into: &arguments)
            return left + connective + structuredFormat(&random, depth: depth - 1, into: &arguments)
        }
    }

    /// A valid description with a few scalars deleted, duplicated or swapped.
    static func mutatedFormat(_ random: inout SplitMix64) -> String {
        var generator = RandomPredicateGenerator(seed: random.next())
        var scalars = Array(generator.predicate(depth: 2).description.unicodeScalars)
        for _ in 0..<Int.random(in: 1...3, using: &random) where !scalars.isEmpty {
            let index = Int.random(in: 0..<scalars.count, using: &random)
            switch Int.random(in: 0...2, using: &random) {
            case 0: scalars.remove(at: index)
            case 1: scalars.insert(scalars[index], at: index)
            default: scalars.swapAt(index, Int.random(in: 0..<scalars.count, using: &random))
            }
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }

    /// Parses `format`; when it parses, its description must parse back to the same tree.
    static func check(_ format: String, _ arguments: [any PredicateArgument], seed: UInt64, index: Int) {
        let parsed: FetchPredicate
        do {
            parsed = try FetchPredicate(format: format, arguments: arguments)
        } catch {
            #expect(error.offset.map { $0 >= 0 && $0 <= format.count } ?? true, "seed \(seed), input \(index)")
            #expect(!error.message.isEmpty)
            return
        }
        do {
            let again = try FetchPredicate(format: parsed.description)
            // Descriptions as well as trees: `==` on values treats `.integer16(3)` and
            // `.double(3)` as equal, the printed form does not.
            #expect(again == parsed, "seed \(seed), input \(index): \(format) → \(parsed)")
            #expect(again.description == parsed.description, "seed \(seed), input \(index): \(format)")
        } catch {
            Issue.record("seed \(seed), input \(index): \(format) → \(parsed) does not parse back: \(error.message)")
        }
    }

    @Test(arguments: 1...8 as ClosedRange<UInt64>)
    func randomTokenSoupNeverCrashes(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for index in 0..<500 {
            let format = Self.randomFormat(&random)
            let count = Int.random(in: 0...3, using: &random)
            let arguments = (0..<count).map { _ in Self.arguments.randomElement(using: &random) ?? 0 }
            Self.check(format, arguments, seed: seed, index: index)
        }
    }

    @Test(arguments: 1...4 as ClosedRange<UInt64>)
    func grammaticalFormatsParseAndSurviveARoundTrip(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for index in 0..<300 {
            var arguments: [any PredicateArgument] = []
            let format = Self.structuredFormat(&random, depth: 4, into: &arguments)
            do {
                let parsed = try FetchPredicate(format: format, arguments: arguments)
                let again = try FetchPredicate(format: parsed.description)
                #expect(again == parsed, "seed \(seed), input \(index): \(format)")
                #expect(again.description == parsed.description, "seed \(seed), input \(index): \(format)")
            } catch {
                Issue.record("seed \(seed), input \(index): \(format) does not parse: \(error.message)")
            }
        }
    }

    @Test(arguments: 1...4 as ClosedRange<UInt64>)
    func mutatedDescriptionsNeverCrash(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        for index in 0..<500 {
            Self.check(Self.mutatedFormat(&random), [], seed: seed, index: index)
        }
    }

    @Test func placeholdersInsideQuotesAreText() throws {
        #expect(try FetchPredicate(format: "a == '%@'") == compare(key("a"), .equalTo, value(.string("%@"))))
    }

    @Test func whitespaceOfAnyKindSeparatesTokens() {
        expectParse(
            "\ta\n==\r\n1\u{A0}AND\u{2003}b==2 ",
            .and([compare(key("a"), .equalTo, value(.integer64(1))), compare(key("b"), .equalTo, value(.integer64(2)))])
        )
    }
}
