import Foundation
import Testing

@testable import Strata

@Suite struct CollectionOperatorTests: EvaluationTesting {
    private func apply(_ op: CollectionOperator, _ values: [AttributeValue]) throws(FetchPredicateError)
        -> AttributeValue?
    {
        try op.apply(to: .collection(values.map { .value($0) }), label: "x").scalar
    }

    private func bookValue(_ path: String) throws(FetchPredicateError) -> AttributeValue? {
        try EvaluatedValue.object(EvaluationFixtures.book()).value(atKeyPath: path, label: path).scalar
    }

    @Test func emptyCollections() throws {
        #expect(try apply(.count, []) == .integer64(0))
        #expect(try apply(.sum, []) == .integer64(0))
        #expect(try apply(.average, []) == .null)
        #expect(try apply(.minimum, []) == .null)
        #expect(try apply(.maximum, []) == .null)
        #expect(try bookValue("reviews.@count") == .integer64(0))
        #expect(try bookValue("reviews.@sum.stars") == .integer64(0))
        #expect(try bookValue("reviews.@avg.stars") == .null)
        #expect(try bookValue("reviews.@min.stars") == .null)
        #expect(try bookValue("reviews.@max.stars") == .null)
    }

    @Test func countCountsNullsAndObjects() throws {
        #expect(try apply(.count, [.null, .integer16(1)]) == .integer64(2))
        #expect(try bookValue("tags.@count") == .integer64(3))
        #expect(try bookValue("tags.name.@count") == .integer64(3))
    }

    @Test func sumAndAverageSkipNulls() throws {
        #expect(try bookValue("items.@sum.price") == .double(5.5))
        #expect(try bookValue("items.price.@sum") == .double(5.5))
        #expect(try bookValue("items.@avg.price") == .double(2.75))
        #expect(try bookValue("items.@sum.quantity") == .integer64(4))
        #expect(try apply(.sum, [.null, .null]) == .integer64(0))
        #expect(try apply(.average, [.null]) == .null)
    }

    @Test func sumKeepsIntegersAndDecimalsExact() throws {
        #expect(try apply(.sum, [.integer16(1), .integer32(2), .integer64(3), .boolean(true)]) == .integer64(7))
        let sum = try apply(.sum, [.integer64(.max), .integer64(.max)])
        #expect(sum == .decimal(Decimal(Int64.max) * 2))
        #expect(
            try apply(.sum, [.decimal(Decimal(string: "0.1")!), .decimal(Decimal(string: "0.2")!)])
                == .decimal(Decimal(string: "0.3")!))
        #expect(
            try apply(.sum, [.integer16(1), .decimal(Decimal(string: "0.5")!)]) == .decimal(Decimal(string: "1.5")!))
        #expect(try apply(.sum, [.float(0.5), .decimal(1)]) == .double(1.5))
        #expect(try apply(.sum, [.double(.nan), .integer16(1)]).map { $0 == .double(.nan) } == true)
    }

    @Test func averageOfIntegersIsExact() throws {
        #expect(try apply(.average, [.integer16(1), .integer16(2)]) == .decimal(Decimal(string: "1.5")!))
        #expect(try apply(.average, [.integer16(1), .null, .integer16(3)]) == .integer64(2))
        #expect(try apply(.average, [.double(1), .integer16(2)]) == .double(1.5))
    }

    @Test func minimumAndMaximumFollowCompare() throws {
        let numbers: [AttributeValue] = [.integer16(3), .double(-1.5), .null, .decimal(7), .float(.nan)]
        #expect(try apply(.minimum, numbers) == .double(-1.5))
        #expect(try apply(.maximum, numbers) == .decimal(7))
        let strings: [AttributeValue] = [.string("b"), .string("B"), .string("é"), .string("e")]
        #expect(try apply(.minimum, strings) == .string("B"))
        #expect(try apply(.maximum, strings) == .string("é"))
        let early = Date(timeIntervalSinceReferenceDate: 0)
        let late = Date(timeIntervalSinceReferenceDate: 1)
        #expect(try apply(.maximum, [.date(early), .date(late)]) == .date(late))
        let notADate = AttributeValue.date(Date(timeIntervalSinceReferenceDate: .nan))
        #expect(try apply(.maximum, [notADate, .date(early), notADate]) == .date(early))
        #expect(try apply(.minimum, [.date(late), notADate]) == .date(late))
        #expect(try apply(.minimum, [notADate]) == .null)
        #expect(try bookValue("items.@max.price") == .double(3.5))
        #expect(try bookValue("items.@min.price") == .integer16(2))
        #expect(try bookValue("tags.@max.name") == .string("scifi"))
        #expect(try apply(.maximum, [.null, .double(.nan)]) == .null)
    }

    @Test func minimumOfUnrelatedKindsIsAnError() {
        let error = predicateError { () throws(FetchPredicateError) -> Bool in
            try apply(.minimum, [.string("a"), .integer16(1)]) != nil
        }
        #expect(error?.code == .evaluation)
        #expect(error?.message.contains("@min") == true)
    }

    @Test func sumOfNonNumbersIsAnError() {
        let error = predicateError { () throws(FetchPredicateError) -> Bool in
            try bookValue("tags.@sum.name") != nil
        }
        #expect(error?.code == .evaluation)
        #expect(error?.message.contains("tags.@sum.name") == true)
    }

    @Test func operatorOnAScalarIsAnError() {
        let error = predicateError { () throws(FetchPredicateError) -> Bool in try bookValue("title.@count") != nil }
        #expect(error?.code == .evaluation)
        #expect(error?.message.contains("@count") == true)
    }

    @Test func unknownOperatorIsAnError() {
        let error = predicateError { () throws(FetchPredicateError) -> Bool in try bookValue("tags.@median.name") != nil
        }
        #expect(error?.code == .evaluation)
        #expect(error?.message.contains("@median") == true)
    }

    @Test func operatorsWorkOnAggregatesAndSubqueries() throws {
        let book = EvaluationFixtures.book()
        let numbers = FetchExpression.aggregate([constant(1), constant(2.5), .constant(.null)])
        #expect(try comparison(.keyPathOn(numbers, "@sum"), .equalTo, constant(3.5)).evaluate(with: book))
        #expect(try comparison(.keyPathOn(numbers, "@count"), .equalTo, constant(3)).evaluate(with: book))
        let named = FetchExpression.subquery(
            collection: .keyPath("tags"), variable: "t",
            predicate: comparison(.keyPathOn(.variable("t"), "name"), .notEqualTo, .constant(.null))
        )
        #expect(try comparison(.keyPathOn(named, "@count"), .equalTo, constant(2)).evaluate(with: book))
    }
}
