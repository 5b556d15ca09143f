import Testing

@testable import Strata

@Suite struct ComparisonPredicateDescriptionTests {
    @Test func everyOperatorHasItsCanonicalSpelling() throws {
        for op in ComparisonPredicate.Operator.allCases {
            let right: FetchExpression =
                op == .between ? .aggregate([value(.integer64(1)), value(.integer64(2))]) : value(.integer64(1))
            let comparison = ComparisonPredicate(key("a"), op, right)
            #expect(comparison.description == "a \(op.rawValue) \(right)")
            #expect(try FetchPredicate(format: comparison.description) == .comparison(comparison))
        }
    }

    @Test func quantifiersAndOptions() {
        let both: StringComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
        #expect(
            ComparisonPredicate(key("tags.name"), .beginsWith, value(.string("a")), modifier: .any, options: both)
                .description == #"ANY tags.name BEGINSWITH[cd] "a""#)
        #expect(
            ComparisonPredicate(key("n"), .equalTo, value(.string("a")), modifier: .all, options: .diacriticInsensitive)
                .description == #"ALL n ==[d] "a""#)
        #expect(
            ComparisonPredicate(key("n"), .like, value(.string("a?")), options: .caseInsensitive).description
                == #"n LIKE[c] "a?""#)
    }
}
