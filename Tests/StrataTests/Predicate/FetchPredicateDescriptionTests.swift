import Foundation
import Testing

@testable import Strata

@Suite struct FetchPredicateDescriptionTests {
    @Test func describesInCoreDataStyle() throws {
        let cases: [(String, String)] = [
            ("name == 'x' AND age > 3", #"name == "x" AND age > 3"#),
            ("any tags.name beginswith[cd] 'a'", #"ANY tags.name BEGINSWITH[cd] "a""#),
            ("SUBQUERY(items, $x, $x.price > 10).@count > 0", "SUBQUERY(items, $x, $x.price > 10).@count > 0"),
            ("truepredicate", "TRUEPREDICATE"),
            ("NOT FALSEPREDICATE", "NOT FALSEPREDICATE"),
            ("(a = 1 || b <> 2) && c =< 3", "(a == 1 OR b != 2) AND c <= 3"),
            ("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
            ("!(a == 1 AND b == 2)", "NOT (a == 1 AND b == 2)"),
            ("NOT a == 1", "NOT a == 1"),
            ("NONE tags == 'x'", #"NOT ANY tags == "x""#),
            ("ALL scores => 5", "ALL scores >= 5"),
            ("a BETWEEN {1, 2.5}", "a BETWEEN {1, 2.5}"),
            ("#in == nil", "#in == nil"),
            ("#self.name == YES", "#self.name == YES"),
            ("SELF.name IN {}", "SELF.name IN {}"),
            ("lowercase(name) LIKE[c] 'a*'", #"lowercase(name) LIKE[c] "a*""#),
            ("#and() == $v", "#and() == $v"),
            ("date > CAST(12.5, 'Date')", #"date > CAST(12.5, "NSDate")"#),
            ("name MATCHES '\\d+'", #"name MATCHES "\\d+""#),
        ]
        for (format, expected) in cases {
            let predicate = try FetchPredicate(format: format)
            #expect(predicate.description == expected, "\(format)")
            #expect(try FetchPredicate(format: predicate.description) == predicate, "\(format)")
        }
    }

    @Test func degenerateCompoundsDescribeAsTheirMeaning() {
        let a = compare(key("a"), .equalTo, value(.integer64(1)))
        #expect(FetchPredicate.and([]).description == "TRUEPREDICATE")
        #expect(FetchPredicate.or([]).description == "FALSEPREDICATE")
        #expect(FetchPredicate.and([a]).description == "a == 1")
        #expect(FetchPredicate.or([.and([a, a])]).description == "(a == 1 AND a == 1)")
        #expect(FetchPredicate.not(.or([a])).description == "NOT (a == 1)")
    }

    @Test func nestedCompoundsKeepTheirStructureThroughARoundTrip() throws {
        let a = compare(key("a"), .equalTo, value(.integer64(1)))
        let b = compare(key("b"), .equalTo, value(.integer64(2)))
        let trees: [FetchPredicate] = [
            .and([.and([a, b]), a]), .or([.or([a, b]), .and([b, a])]), .not(.not(.and([a, .or([a, b])]))),
            .and([.not(.or([a, b])), .constant(false)]),
        ]
        for tree in trees {
            #expect(try FetchPredicate(format: tree.description) == tree, "\(tree)")
        }
    }

    @Test(arguments: 1...25 as ClosedRange<UInt64>)
    func randomTreesSurviveARoundTrip(seed: UInt64) {
        var generator = RandomPredicateGenerator(seed: seed)
        for index in 0..<40 {
            let tree = generator.predicate(depth: 4)
            let text = tree.description
            do {
                let parsed = try FetchPredicate(format: text)
                #expect(parsed == tree, "seed \(seed), tree \(index): \(text)")
                #expect(parsed.description == text, "seed \(seed), tree \(index): \(text)")
            } catch {
                Issue.record("seed \(seed), tree \(index) does not parse back: \(error.message)")
            }
        }
    }
}
