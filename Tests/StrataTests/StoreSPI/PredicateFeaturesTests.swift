import Testing

@testable import Strata

@Suite struct PredicateFeaturesTests {
    @Test(
        arguments: [
            ("TRUEPREDICATE", PredicateFeatures()),
            ("a == 1", [.comparisons]),
            ("a == 1 AND NOT b < 2", [.comparisons, .compounds]),
            ("a IN {1, 2} OR a BETWEEN {3, 4}", [.membership, .compounds]),
            ("name BEGINSWITH[cd] 'x'", [.stringMatching, .stringOptions]),
            ("name LIKE 'a*'", [.stringMatching]),
            ("name MATCHES '[a-z]+'", [.regularExpressions]),
            ("author.name == 'x'", [.comparisons, .relationshipKeyPaths]),
            ("ANY tags.name == 'x'", [.comparisons, .quantifiers, .relationshipKeyPaths]),
            ("books.@count > 2", [.comparisons, .collectionOperators]),
            ("SUBQUERY(books, $b, $b.pages > 10).@count > 0", [.comparisons, .subqueries, .collectionOperators]),
            ("date < now()", [.comparisons, .functions]),
        ] as [(String, PredicateFeatures)])
    func featuresArePreciselyThoseUsed(format: String, expected: PredicateFeatures) throws {
        #expect(try FetchPredicate(format: format).requiredFeatures == expected)
    }

    @Test func allCoversEveryFeature() throws {
        let everything = try FetchPredicate(
            format: "NOT (ANY a.b.@count IN {1} AND SUBQUERY(c, $x, $x.d MATCHES[c] 'e').@count > now())")
        #expect(PredicateFeatures.all.isSuperset(of: everything.requiredFeatures))
    }
}
