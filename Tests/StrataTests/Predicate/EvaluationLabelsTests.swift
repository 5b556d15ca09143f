import Foundation
import Testing

@testable import Strata

@Suite struct EvaluationLabelsTests {
    @Test func expressionsRenderInFormatStringStyle() {
        #expect(FetchExpression.evaluatedObject.evaluationLabel == "SELF")
        #expect(FetchExpression.keyPath("author.name").evaluationLabel == "author.name")
        #expect(FetchExpression.keyPathOn(.variable("x"), "name").evaluationLabel == "$x.name")
        #expect(FetchExpression.constant(.string("a")).evaluationLabel == "\"a\"")
        #expect(FetchExpression.constant(.null).evaluationLabel == "nil")
        #expect(
            FetchExpression.aggregate([.constant(.integer16(1)), .constant(.boolean(true))]).evaluationLabel
                == "{1, YES}")
        #expect(FetchExpression.function("lowercase", [.keyPath("name")]).evaluationLabel == "lowercase(name)")
        let subquery = FetchExpression.subquery(collection: .keyPath("tags"), variable: "t", predicate: .constant(true))
        #expect(subquery.evaluationLabel == "SUBQUERY(tags, $t, …)")
    }

    @Test func comparisonsRenderWithModifierAndOptions() {
        let comparison = ComparisonPredicate(
            .keyPath("tags.name"), .beginsWith, .constant(.string("a")), modifier: .any,
            options: [.caseInsensitive, .diacriticInsensitive]
        )
        #expect(comparison.evaluationLabel == "ANY tags.name BEGINSWITH[cd] \"a\"")
    }

    @Test func valuesDescribeTheirKind() {
        #expect(AttributeValue.null.kindDescription == "null")
        #expect(AttributeValue.integer16(1).kindDescription == "a value of type Integer 16")
        #expect(EvaluatedValue.collection([.value(.null)]).kindDescription == "a collection of 1 element")
        #expect(EvaluatedValue.object(KeyValueRecord([:])).kindDescription == "an object")
    }
}
