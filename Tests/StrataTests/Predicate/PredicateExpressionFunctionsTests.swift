import Foundation
import Testing

@testable import Strata

/// Core Data's other expression functions, the union collection operators and indexes, parsed
/// from format strings and evaluated on the fixture book (items priced 2, 3.5 and nil, with
/// quantities 3, 1 and 0; tags "scifi", "Classic" and nil).
@Suite struct PredicateExpressionFunctionsTests {
    private func holds(_ format: String) throws -> Bool {
        try FetchPredicate(format: format).evaluate(with: EvaluationFixtures.book())
    }

    private func evaluationError(_ format: String) -> FetchPredicateError? {
        #expect(throws: FetchPredicateError.self) { _ = try holds(format) }
    }

    @Test func mathematicalFunctions() throws {
        #expect(try holds("sqrt:(16) == 4 AND log:(1000) == 3 AND ln:(1) == 0 AND exp:(0) == 1"))
        #expect(try holds("ceiling:(2.1) == 3 AND floor:(-2.1) == -3 AND trunc:(-2.7) == -2 AND trunc:(7) == 7"))
        #expect(try holds("floor:(CAST('2.5', 'Decimal')) == CAST('2', 'Decimal')"))
        #expect(try holds("sqrt:(nil) == nil"))
        #expect(evaluationError("sqrt:('x') == 1")?.message.contains("needs a number") == true)
    }

    @Test func bitwiseFunctionsTakeIntegers() throws {
        #expect(try holds("bitwiseAnd:with:(12, 10) == 8 AND bitwiseOr:with:(12, 10) == 14"))
        #expect(try holds("bitwiseXor:with:(12, 10) == 6 AND onesComplement:(0) == -1"))
        #expect(try holds("leftshift:by:(1, 4) == 16 AND rightshift:by:(-16, 2) == -4"))
        #expect(evaluationError("bitwiseAnd:with:(1.5, 1) == 1")?.message.contains("needs an integer") == true)
    }

    @Test func statisticsOfACollectionSkipNulls() throws {
        #expect(try holds("median:(items.quantity) == 1 AND median:(items.price) == 2.75"))
        #expect(try holds("mode:({3, 1, 3, 1, 2}) == 1 AND stddev:({2, 4, 4, 4, 5, 5, 7, 9}) == 2"))
        #expect(try holds("median:(reviews.stars) == nil"))
    }

    @Test func randomNumbersStayInRange() throws {
        #expect(try holds("random() >= 0 AND random() < 1 AND randomn:(3) BETWEEN {0, 2}"))
        #expect(evaluationError("randomn:(0) == 0") != nil)
    }

    @Test func indexHintsGiveTheirExpression() throws {
        #expect(try holds("noindex:(pages) == 412 AND indexed:by:(pages, 'byPages') == 412"))
    }

    @Test func unionOperatorsFlattenAndDeduplicate() throws {
        #expect(try holds("items.@distinctUnionOfObjects.quantity.@count == 3"))
        #expect(try holds("{1, 1, 2}.@distinctUnionOfObjects.@count == 2"))
        #expect(try holds("items.@unionOfObjects.quantity.@sum == 4"))
        #expect(try holds("ANY tags.@distinctUnionOfSets.name == 'scifi'"))
        #expect(try holds("'Classic' IN tags.@unionOfObjects.name"))
        let predicate = try FetchPredicate(format: "ANY tags.@distinctUnionOfArrays.name == 'x'")
        #expect(try FetchPredicate(format: predicate.description) == predicate)
    }

    @Test func indexesPickElementsAndPrintBack() throws {
        #expect(try holds("{5, 6, 7}[FIRST] == 5 AND {5, 6, 7}[LAST] == 7 AND {5, 6, 7}[SIZE] == 3"))
        #expect(try holds("{5, 6, 7}[1] == 6 AND {5, 6, 7}[1 + 1] == 7 AND {}[first] == nil"))
        #expect(try holds("items.quantity[SIZE] == 3"))
        #expect(evaluationError("{5, 6}[2] == 1")?.message.contains("element 2 of a collection of 2") == true)
        for format in ["tags.name[FIRST] == \"x\"", "{1, 2}[a + 1] == 2", "(a + b)[0] == 1"] {
            let predicate = try FetchPredicate(format: format)
            #expect(predicate.description == format)
            #expect(try FetchPredicate(format: predicate.description) == predicate)
        }
    }

    @Test func ternaryPicksABranchByItsPredicate() throws {
        #expect(try holds("TERNARY(pages > 400, 'long', 'short') == 'long'"))
        #expect(try holds("TERNARY(pages > 1000 OR title == 'x', 1, 2) + 1 == 3"))
        #expect(try holds("TERNARY(TRUEPREDICATE, 1, 1 / 0) == 1"))
        let predicate = try FetchPredicate(format: "ternary(a == $limit, b, c * 2) > 1")
        #expect(predicate.description == "TERNARY(a == $limit, b, c * 2) > 1")
        #expect(try FetchPredicate(format: predicate.description) == predicate)
        #expect(predicate.variableNames == ["limit"])
        let substituted = try predicate.substituting(["limit": 3])
        #expect(substituted.description == "TERNARY(a == 3, b, c * 2) > 1")
        expectError("TERNARY(a, b, c) == 1", offset: 9)
    }
}
