import Strata
import Testing

/// The parts of a predicate that the public API lists: the key paths it reads and the
/// conditions of its top-level `AND`.
@Suite struct FetchPredicatePartsTests {
    @Test func keyPathsListWhatThePredicateReadsLeavingOutSubqueriesAndVariables() throws {
        let predicate = try FetchPredicate(
            format: "name BEGINSWITH 'a' AND country.name != city AND sum:(pages.number) > 3"
                + " AND SUBQUERY(items, $x, $x.price > 1).@count > 0 AND $LIMIT > 2")
        #expect(predicate.keyPaths == ["name", "country.name", "city", "pages.number", "items"])
    }

    @Test func conjunctsFlattenNestedAndsAndLeaveOtherPredicatesWhole() throws {
        let nested = try FetchPredicate(format: "a == 1 AND (b == 2 AND (c == 3 OR d == 4)) AND NOT e == 5")
        #expect(nested.conjuncts.map(\.description) == ["a == 1", "b == 2", "c == 3 OR d == 4", "NOT e == 5"])
        let single = try FetchPredicate(format: "a == 1 OR b == 2")
        #expect(single.conjuncts == [single])
    }
}
