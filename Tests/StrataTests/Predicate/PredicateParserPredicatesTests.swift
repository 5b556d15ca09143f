import Foundation
import Testing

@testable import Strata

@Suite struct PredicateParserPredicatesTests {
    @Test func everyComparisonOperatorSpellingParses() {
        let spellings: [(String, ComparisonPredicate.Operator)] = [
            ("==", .equalTo), ("=", .equalTo), ("!=", .notEqualTo), ("<>", .notEqualTo), ("<", .lessThan),
            ("<=", .lessThanOrEqualTo), ("=<", .lessThanOrEqualTo), (">", .greaterThan),
            (">=", .greaterThanOrEqualTo), ("=>", .greaterThanOrEqualTo), ("IN", .in), ("in", .in),
            ("BEGINSWITH", .beginsWith), ("beginswith", .beginsWith), ("ENDSWITH", .endsWith),
            ("EndsWith", .endsWith), ("CONTAINS", .contains), ("LIKE", .like), ("like", .like),
            ("MATCHES", .matches), ("Matches", .matches),
        ]
        for (spelling, op) in spellings {
            expectParse("a \(spelling) 1", compare(key("a"), op, value(.integer64(1))))
        }
    }

    @Test func operatorsNeedNoSpaces() {
        expectParse("a==1", compare(key("a"), .equalTo, value(.integer64(1))))
        expectParse("a<=-1", compare(key("a"), .lessThanOrEqualTo, value(.integer64(-1))))
        expectParse("a<>'x'", compare(key("a"), .notEqualTo, value(.string("x"))))
        expectParse("a=>b", compare(key("a"), .greaterThanOrEqualTo, key("b")))
    }

    @Test func betweenTakesTwoBounds() {
        expectParse(
            "age BETWEEN {18, 65}",
            compare(key("age"), .between, .aggregate([value(.integer64(18)), value(.integer64(65))])))
        expectParse(
            "age between %@", arguments: [[1, 2]],
            compare(key("age"), .between, .aggregate([value(.integer64(1)), value(.integer64(2))])))
        expectParse(
            "date BETWEEN {$START, now()}",
            compare(key("date"), .between, .aggregate([.variable("START"), .function("now", [])])))
    }

    @Test func stringOptionsFollowTheOperator() {
        expectParse(
            "name BEGINSWITH[c] 'a'", compare(key("name"), .beginsWith, value(.string("a")), .direct, .caseInsensitive))
        expectParse(
            "name ==[d] 'a'", compare(key("name"), .equalTo, value(.string("a")), .direct, .diacriticInsensitive))
        let both: StringComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
        expectParse("name CONTAINS[cd] 'a'", compare(key("name"), .contains, value(.string("a")), .direct, both))
        expectParse("name LIKE[dc] 'a*'", compare(key("name"), .like, value(.string("a*")), .direct, both))
        expectParse("name MATCHES [CD] 'a'", compare(key("name"), .matches, value(.string("a")), .direct, both))
        expectParse(
            "name IN[c] {'a'}", compare(key("name"), .in, .aggregate([value(.string("a"))]), .direct, .caseInsensitive))
    }

    @Test func quantifiersModifyTheLeftSide() {
        let right = value(.string("a"))
        expectParse("ANY tags.name == 'a'", compare(key("tags.name"), .equalTo, right, .any))
        expectParse("some tags.name == 'a'", compare(key("tags.name"), .equalTo, right, .any))
        expectParse("ALL tags.name == 'a'", compare(key("tags.name"), .equalTo, right, .all))
        expectParse("NONE tags.name == 'a'", .not(compare(key("tags.name"), .equalTo, right, .any)))
        expectParse(
            "ANY tags.name BEGINSWITH[cd] 'a'",
            compare(key("tags.name"), .beginsWith, right, .any, [.caseInsensitive, .diacriticInsensitive]))
    }

    @Test func notBindsTighterThanAndWhichBindsTighterThanOr() {
        let a = compare(key("a"), .equalTo, value(.integer64(1)))
        let b = compare(key("b"), .equalTo, value(.integer64(2)))
        let c = compare(key("c"), .equalTo, value(.integer64(3)))
        expectParse("a == 1 AND b == 2 OR c == 3", .or([.and([a, b]), c]))
        expectParse("a == 1 OR b == 2 AND c == 3", .or([a, .and([b, c])]))
        expectParse("NOT a == 1 AND b == 2", .and([.not(a), b]))
        expectParse("a == 1 && b == 2 || !c == 3", .or([.and([a, b]), .not(c)]))
        expectParse("a == 1 and b == 2 and c == 3", .and([a, b, c]))
        expectParse("a == 1 or b == 2 or c == 3", .or([a, b, c]))
        expectParse("NOT NOT a == 1", .not(.not(a)))
        expectParse("! (a == 1 OR b == 2)", .not(.or([a, b])))
    }

    @Test func parenthesesGroupAndKeepTheirStructure() {
        let a = compare(key("a"), .equalTo, value(.integer64(1)))
        let b = compare(key("b"), .equalTo, value(.integer64(2)))
        let c = compare(key("c"), .equalTo, value(.integer64(3)))
        expectParse("a == 1 AND (b == 2 OR c == 3)", .and([a, .or([b, c])]))
        expectParse("(a == 1 AND b == 2) AND c == 3", .and([.and([a, b]), c]))
        expectParse("((a == 1))", a)
        expectParse("NOT (a == 1) OR (b == 2)", .or([.not(a), b]))
    }

    @Test func truePredicateAndFalsePredicate() {
        expectParse("TRUEPREDICATE", .constant(true))
        expectParse("falsepredicate", .constant(false))
        expectParse(
            "TRUEPREDICATE AND NOT FALSEPREDICATE", .and([.constant(true), .not(.constant(false))]))
    }

    @Test func constantsMayStandOnEitherSide() {
        expectParse("3 < age", compare(value(.integer64(3)), .lessThan, key("age")))
        expectParse("'a' IN names", compare(value(.string("a")), .in, key("names")))
        expectParse("%@ IN tags", arguments: ["x"], compare(value(.string("x")), .in, key("tags")))
        expectParse("nil == name", compare(value(.null), .equalTo, key("name")))
    }
}
