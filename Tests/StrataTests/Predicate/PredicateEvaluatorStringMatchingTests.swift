import Foundation
import Testing

@testable import Strata

@Suite struct PredicateEvaluatorStringMatchingTests: EvaluationTesting {
    /// `(text, operator, argument, options, expected)`.
    static let cases: [(String, ComparisonPredicate.Operator, String, StringComparisonOptions, Bool)] = [
        ("Dune Messiah", .beginsWith, "Dune", [], true),
        ("Dune Messiah", .beginsWith, "dune", [], false),
        ("Dune Messiah", .beginsWith, "dune", .caseInsensitive, true),
        ("Dune Messiah", .beginsWith, "Messiah", [], false),
        ("Dune", .beginsWith, "Dune Messiah", [], false),
        ("Dune", .beginsWith, "", [], true),
        ("Dune Messiah", .endsWith, "Messiah", [], true),
        ("Dune Messiah", .endsWith, "MESSIAH", [], false),
        ("Dune Messiah", .endsWith, "MESSIAH", .caseInsensitive, true),
        ("Dune Messiah", .endsWith, "Dune", [], false),
        ("Dune", .endsWith, "", [], true),
        ("Dune Messiah", .contains, "e M", [], true),
        ("Dune Messiah", .contains, "E m", [], false),
        ("Dune Messiah", .contains, "E m", .caseInsensitive, true),
        ("Dune Messiah", .contains, "", [], true),
        ("", .contains, "a", [], false),
        ("café", .endsWith, "e", [], false),
        ("café", .endsWith, "e", .diacriticInsensitive, true),
        ("café", .endsWith, "É", .caseInsensitive, true),
        ("café", .endsWith, "E", [.caseInsensitive, .diacriticInsensitive], true),
        ("cafe\u{301}", .endsWith, "\u{E9}", [], false),
        ("cafe\u{301}", .endsWith, "e", [], false),
        ("cafe\u{301}", .endsWith, "\u{301}", [], true),
        ("cafe\u{301}", .endsWith, "\u{E9}", .caseInsensitive, true),
        ("cafe\u{301}", .contains, "fe", .diacriticInsensitive, true),
        ("Straße", .endsWith, "SSE", .caseInsensitive, true),
        ("STRASSE", .contains, "ß", .caseInsensitive, true),
        ("STRASSE", .contains, "ß", [], false),
        ("İstanbul", .beginsWith, "i", [.caseInsensitive, .diacriticInsensitive], true),
        ("ısparta", .beginsWith, "i", [.caseInsensitive, .diacriticInsensitive], false),
        ("I love 👍🏽", .endsWith, "👍🏽", [], true),
        ("I love 👍🏽", .contains, "👍", [], true),
        ("I love 👍🏽", .endsWith, "👍", [], false),
        ("Ünïcödé", .contains, "nicod", [.caseInsensitive, .diacriticInsensitive], true),
        ("Dune", .like, "Dune", [], true),
        ("Dune", .like, "D*", [], true),
        ("Dune", .like, "*e", [], true),
        ("Dune", .like, "*un*", [], true),
        ("Dune", .like, "*", [], true),
        ("", .like, "*", [], true),
        ("", .like, "?", [], false),
        ("Dune", .like, "D?ne", [], true),
        ("Dune", .like, "D??e", [], true),
        ("Dune", .like, "D?e", [], false),
        ("Dune", .like, "Dun", [], false),
        ("Dune", .like, "une", [], false),
        ("Dune", .like, "d*", [], false),
        ("Dune", .like, "d*", .caseInsensitive, true),
        ("aXbXc", .like, "a*b*c", [], true),
        ("abcbc", .like, "a*bc", [], true),
        ("abcbd", .like, "a*bc", [], false),
        ("mississippi", .like, "*sip*", [], true),
        ("mississippi", .like, "m*iss*ppi", [], true),
        ("a.c", .like, "a.c", [], true),
        ("abc", .like, "a.c", [], false),
        ("a+", .like, "a+", [], true),
        ("aa", .like, "a+", [], false),
        ("[ab]", .like, "[ab]", [], true),
        ("a", .like, "[ab]", [], false),
        ("a\\b", .like, "a\\b", [], true),
        ("(x)|^$", .like, "(x)|^$", [], true),
        ("x", .like, "(x)|^$", [], false),
        ("café", .like, "caf?", [], true),
        ("cafe\u{301}", .like, "caf?", [], true),
        ("cafe\u{301}", .like, "cafe", [], false),
        ("cafe\u{301}", .like, "cafe", .diacriticInsensitive, true),
        ("cafe\u{301}", .like, "caf\u{E9}", [], false),
        ("cafe\u{301}", .like, "CAF\u{C9}", .caseInsensitive, true),
        ("Straße", .like, "STRA*E", .caseInsensitive, true),
        ("Straße", .like, "stra?e", .caseInsensitive, false),
        ("Straße", .like, "stra??e", .caseInsensitive, true),
        ("👍🏽!", .like, "?!", [], true),
        ("Dune", .matches, "D.ne", [], true),
        ("Dune", .matches, "D.n", [], false),
        ("Dune", .matches, "un", [], false),
        ("Dune", .matches, "d.NE", [], false),
        ("Dune", .matches, "d.NE", .caseInsensitive, true),
        ("ab", .matches, "a|ab", [], true),
        ("abc", .matches, "a|ab", [], false),
        ("line\nnext", .matches, "line", [], false),
        ("line\n", .matches, "line", [], false),
        ("line\n", .matches, "line$", [], false),
        ("2024-01-31", .matches, "\\d{4}-\\d{2}-\\d{2}", [], true),
        ("café", .matches, "caf.", [], true),
        ("café", .matches, "cafe", .diacriticInsensitive, true),
        ("ÉCOLE", .matches, "[a-z]+", .caseInsensitive, false),
        ("ÉCOLE", .matches, "[a-z]+", [.caseInsensitive, .diacriticInsensitive], true),
        ("a)(b", .matches, ".*", [], true),
    ]

    @Test(arguments: cases)
    func stringOperatorMatches(
        _ text: String, _ op: ComparisonPredicate.Operator, _ argument: String, _ options: StringComparisonOptions,
        _ expected: Bool
    ) throws {
        #expect(try holds(.string(text), op, .string(argument), options: options) == expected)
    }

    @Test(arguments: [ComparisonPredicate.Operator.beginsWith, .endsWith, .contains, .like, .matches])
    func stringOperatorsAreFalseWithNullOnEitherSide(_ op: ComparisonPredicate.Operator) throws {
        #expect(try !holds(.null, op, .string("a")))
        #expect(try !holds(.string("a"), op, .null))
        #expect(try !holds(.null, op, .null))
        #expect(try !comparison(.keyPath("subtitle"), op, constant("a")).evaluate(with: EvaluationFixtures.book()))
        #expect(
            try !comparison(.keyPath("author.publisher.name"), op, constant("a")).evaluate(
                with: EvaluationFixtures.book()))
    }

    @Test(arguments: [ComparisonPredicate.Operator.beginsWith, .endsWith, .contains, .like, .matches])
    func stringOperatorsRejectOtherKindsOfValues(_ op: ComparisonPredicate.Operator) {
        for (text, argument) in [
            (AttributeValue.integer16(12), AttributeValue.string("1")), (.string("12"), .integer64(1)),
        ] {
            let error = predicateError { () throws(FetchPredicateError) -> Bool in try holds(text, op, argument) }
            #expect(error?.code == .evaluation)
            #expect(error?.message.contains(op.rawValue) == true)
        }
    }

    @Test func invalidRegularExpressionIsAnErrorNamingThePattern() {
        for pattern in ["a(", "[z-a]", "*", "a{2,1}"] {
            let error = predicateError { () throws(FetchPredicateError) -> Bool in
                try holds(.string("a"), .matches, .string(pattern))
            }
            #expect(error?.code == .evaluation)
            #expect(error?.message.contains("'\(pattern)'") == true)
        }
    }

    @Test func unbalancedPatternIsInvalidEvenThoughWrappingWouldBalanceIt() {
        let error = predicateError { () throws(FetchPredicateError) -> Bool in
            try holds(.string("a)(b"), .matches, .string("a)(b"))
        }
        #expect(error?.code == .evaluation)
    }

    @Test func compiledPatternsAreReusedAcrossObjects() throws {
        let evaluator = PredicateEvaluator()
        let like = comparison(.keyPath("x"), .like, constant("a*"))
        let matches = comparison(.keyPath("x"), .matches, constant("a.*"))
        for (text, expected) in [("abc", true), ("bcd", false), ("a", true)] {
            #expect(try evaluator.evaluate(like, with: EvaluationFixtures.x(.string(text))) == expected)
            #expect(try evaluator.evaluate(matches, with: EvaluationFixtures.x(.string(text))) == expected)
        }
        #expect(evaluator.patterns.keys.map(\.kind).sorted { "\($0)" < "\($1)" } == [.like, .regularExpression])
    }

    @Test func canonicallyEquivalentPatternsAreCompiledSeparately() throws {
        let evaluator = PredicateEvaluator()
        let composed = comparison(.keyPath("x"), .like, constant("caf\u{E9}"))
        let decomposed = comparison(.keyPath("x"), .like, constant("cafe\u{301}"))
        let record = EvaluationFixtures.x(.string("caf\u{E9}"))
        #expect(try evaluator.evaluate(composed, with: record))
        #expect(try !evaluator.evaluate(decomposed, with: record))
        #expect(evaluator.patterns.count == 2)
    }
}
