import Foundation
import Testing

@testable import Strata

@Suite struct PredicateEvaluatorExpressionTests: EvaluationTesting {
    @Test func variablesTakeTheirValuesFromTheDictionary() throws {
        let predicate = comparison(.keyPath("pages"), .greaterThan, .variable("MIN"))
        #expect(try holdsForBook(predicate, variables: ["MIN": .integer64(400)]))
        #expect(try !holdsForBook(predicate, variables: ["MIN": .double(412)]))
        let dollar = comparison(.keyPath("title"), .equalTo, .variable("$TITLE"))
        #expect(try holdsForBook(dollar, variables: ["TITLE": .string("Dune")]))
        let null = comparison(.keyPath("subtitle"), .equalTo, .variable("NONE"))
        #expect(try holdsForBook(null, variables: ["NONE": .null]))
    }

    @Test func missingVariableIsAnErrorNamingIt() {
        let error = predicateError { () throws(FetchPredicateError) -> Bool in
            try holdsForBook(
                comparison(.keyPath("pages"), .greaterThan, .variable("MIN")), variables: ["MAX": .integer16(1)])
        }
        #expect(error?.code == .unknownVariable)
        #expect(error?.message.contains("$MIN") == true)
    }

    @Test func unevaluatedBranchesDoNotNeedTheirVariables() throws {
        let missing = comparison(.keyPath("pages"), .greaterThan, .variable("MIN"))
        #expect(try holdsForBook(.or([.constant(true), missing])))
        #expect(try !holdsForBook(.and([.constant(false), missing])))
    }

    @Test func selfIsTheEvaluatedObject() throws {
        #expect(try holdsForBook(comparison(.evaluatedObject, .equalTo, constant(EvaluationFixtures.bookID))))
        #expect(try holdsForBook(comparison(.keyPathOn(.evaluatedObject, "title"), .equalTo, constant("Dune"))))
    }

    @Test func subqueryBindsItsVariableToEachElement() throws {
        let cheap = FetchExpression.subquery(
            collection: .keyPath("items"), variable: "item",
            predicate: comparison(.keyPathOn(.variable("item"), "price"), .lessThan, constant(3))
        )
        #expect(try holdsForBook(comparison(.keyPathOn(cheap, "@count"), .equalTo, constant(1))))
        let named = FetchExpression.subquery(
            collection: .keyPath("tags"), variable: "$t",
            predicate: comparison(
                .keyPathOn(.variable("t"), "name"), .beginsWith, constant("c"), options: .caseInsensitive)
        )
        #expect(try holdsForBook(comparison(.keyPathOn(named, "@count"), .equalTo, constant(1))))
        #expect(try holdsForBook(comparison(named, .contains, constant(EvaluationFixtures.tagID(2)))))
    }

    @Test func subqueryElementIsAlsoSelf() throws {
        let ordered = FetchExpression.subquery(
            collection: .keyPath("items"), variable: "i",
            predicate: comparison(.keyPath("quantity"), .greaterThan, constant(0))
        )
        #expect(try holdsForBook(comparison(.keyPathOn(ordered, "@count"), .equalTo, constant(2))))
    }

    @Test func subqueryCanReadOuterVariablesAndNest() throws {
        let inner = FetchExpression.subquery(
            collection: .keyPath("tags"), variable: "t",
            predicate: comparison(.keyPathOn(.variable("t"), "name"), .equalTo, .variable("WANTED"))
        )
        let outer = FetchExpression.subquery(
            collection: .keyPath("books"), variable: "b",
            predicate: comparison(.keyPathOn(inner, "@count"), .greaterThan, constant(0))
        )
        let shelf = KeyValueRecord([
            "books": .objects([EvaluationFixtures.book(), KeyValueRecord(["tags": .objects([])])])
        ])
        let predicate = comparison(.keyPathOn(outer, "@count"), .equalTo, constant(1))
        #expect(try predicate.evaluate(with: shelf, variables: ["WANTED": .string("scifi")]))
        #expect(try !predicate.evaluate(with: shelf, variables: ["WANTED": .string("fantasy")]))
    }

    @Test func subqueryOverAggregateAndNull() throws {
        let odd = FetchExpression.subquery(
            collection: .aggregate([constant(1), constant(2), constant(3)]), variable: "n",
            predicate: comparison(.variable("n"), .in, .aggregate([constant(1), constant(3)]))
        )
        #expect(try holdsForBook(comparison(.keyPathOn(odd, "@count"), .equalTo, constant(2))))
        let none = FetchExpression.subquery(
            collection: .keyPath("author.publisher.books"), variable: "b", predicate: .constant(true)
        )
        #expect(try holdsForBook(comparison(.keyPathOn(none, "@count"), .equalTo, constant(0))))
    }

    @Test func subqueryOverAScalarIsAnError() {
        let bad = FetchExpression.subquery(collection: .keyPath("title"), variable: "x", predicate: .constant(true))
        let error = predicateError { () throws(FetchPredicateError) -> Bool in
            try holdsForBook(comparison(.keyPathOn(bad, "@count"), .equalTo, constant(0)))
        }
        #expect(error?.code == .evaluation)
        #expect(error?.message.contains("SUBQUERY") == true)
    }
}
