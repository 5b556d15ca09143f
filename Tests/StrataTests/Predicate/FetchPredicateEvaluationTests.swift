import Foundation
import Testing

@testable import Strata

@Suite struct FetchPredicateEvaluationTests: EvaluationTesting {
    private let failing = FetchPredicate.comparison(
        ComparisonPredicate(.keyPath("missing"), .equalTo, .constant(.null)))

    @Test func constantsAndCompounds() throws {
        #expect(try holdsForBook(.constant(true)))
        #expect(try !holdsForBook(.constant(false)))
        #expect(try holdsForBook(.and([])))
        #expect(try !holdsForBook(.or([])))
        #expect(try holdsForBook(.and([.constant(true), .constant(true)])))
        #expect(try !holdsForBook(.and([.constant(true), .constant(false)])))
        #expect(try holdsForBook(.or([.constant(false), .constant(true)])))
        #expect(try !holdsForBook(.not(.constant(true))))
        #expect(try holdsForBook(.not(.not(.constant(true)))))
    }

    @Test func compoundsStopAtTheDecidingOperand() throws {
        #expect(try !holdsForBook(.and([.constant(false), failing])))
        #expect(try holdsForBook(.or([.constant(true), failing])))
        let error = predicateError { () throws(FetchPredicateError) -> Bool in
            try holdsForBook(.and([.constant(true), failing]))
        }
        #expect(error?.code == .evaluation)
    }

    @Test func anyHoldsWhenSomeElementMatches() throws {
        #expect(try holdsForBook(comparison(.keyPath("tags.name"), .equalTo, constant("scifi"), .any)))
        #expect(try !holdsForBook(comparison(.keyPath("tags.name"), .equalTo, constant("SCIFI"), .any)))
        #expect(
            try holdsForBook(
                comparison(.keyPath("tags.name"), .equalTo, constant("SCIFI"), .any, options: .caseInsensitive)))
        #expect(
            try holdsForBook(
                comparison(.keyPath("tags.name"), .beginsWith, constant("cl"), .any, options: .caseInsensitive)))
        #expect(try holdsForBook(comparison(.keyPath("tags.name"), .equalTo, .constant(.null), .any)))
        #expect(try holdsForBook(comparison(.keyPath("items.price"), .greaterThan, constant(3), .any)))
        #expect(try !holdsForBook(comparison(.keyPath("items.price"), .greaterThan, constant(4), .any)))
        #expect(
            try holdsForBook(
                comparison(.keyPath("tags.name"), .in, aggregate([.string("x"), .string("Classic")]), .any)))
        #expect(try holdsForBook(comparison(.keyPath("tags"), .equalTo, constant(EvaluationFixtures.tagID(3)), .any)))
        #expect(
            try holdsForBook(
                comparison(.keyPath("items.price"), .between, aggregate([.integer16(3), .integer16(4)]), .any)))
    }

    @Test func allHoldsWhenEveryElementMatches() throws {
        #expect(try !holdsForBook(comparison(.keyPath("tags.name"), .notEqualTo, .constant(.null), .all)))
        #expect(try holdsForBook(comparison(.keyPath("tags.name"), .notEqualTo, constant("fantasy"), .all)))
        #expect(try holdsForBook(comparison(.keyPath("items.quantity"), .greaterThanOrEqualTo, constant(0), .all)))
        #expect(try !holdsForBook(comparison(.keyPath("items.quantity"), .greaterThan, constant(0), .all)))
        #expect(try !holdsForBook(comparison(.keyPath("items.price"), .greaterThan, constant(0), .all)))
        #expect(
            try holdsForBook(comparison(.keyPath("tags"), .notEqualTo, constant(EvaluationFixtures.tagID(9)), .all)))
    }

    @Test func noneIsNotAny() throws {
        let none = FetchPredicate.not(comparison(.keyPath("tags.name"), .equalTo, constant("fantasy"), .any))
        #expect(try holdsForBook(none))
        let someScifi = FetchPredicate.not(comparison(.keyPath("tags.name"), .equalTo, constant("scifi"), .any))
        #expect(try !holdsForBook(someScifi))
    }

    @Test func emptyCollections() throws {
        #expect(try !holdsForBook(comparison(.keyPath("reviews.stars"), .greaterThan, constant(3), .any)))
        #expect(try holdsForBook(comparison(.keyPath("reviews.stars"), .greaterThan, constant(3), .all)))
        #expect(try holdsForBook(.not(comparison(.keyPath("reviews.stars"), .greaterThan, constant(3), .any))))
        #expect(try !holdsForBook(comparison(.keyPath("reviews"), .contains, .constant(.null))))
    }

    @Test func nullCollectionCountsAsEmpty() throws {
        #expect(try !holdsForBook(comparison(.keyPath("author.publisher.books.title"), .equalTo, constant("x"), .any)))
        #expect(try holdsForBook(comparison(.keyPath("author.publisher.books.title"), .equalTo, constant("x"), .all)))
    }

    @Test func quantifyingAScalarIsAnError() {
        for modifier in [ComparisonPredicate.Modifier.any, .all] {
            let error = predicateError { () throws(FetchPredicateError) -> Bool in
                try holdsForBook(comparison(.keyPath("title"), .equalTo, constant("Dune"), modifier))
            }
            #expect(error?.code == .evaluation)
            #expect(error?.message.contains("title") == true)
        }
    }

    @Test func quantifiedAggregates() throws {
        let numbers = aggregate([.integer16(1), .double(2), .decimal(3)])
        #expect(try holdsForBook(comparison(numbers, .lessThan, constant(4), .all)))
        #expect(try holdsForBook(comparison(numbers, .equalTo, constant(2), .any)))
        #expect(try !holdsForBook(comparison(numbers, .greaterThan, constant(3), .any)))
    }

    @Test func typicalFetchPredicate() throws {
        let predicate = FetchPredicate.and([
            comparison(.keyPath("author.name"), .beginsWith, constant("frank"), options: .caseInsensitive),
            comparison(.keyPath("pages"), .between, aggregate([.integer64(100), .integer64(500)])),
            .or([
                comparison(.keyPath("tags.name"), .equalTo, constant("classic"), .any, options: .caseInsensitive),
                comparison(.keyPath("rating"), .greaterThan, constant(4.8)),
            ]),
            .not(comparison(.keyPath("subtitle"), .like, constant("*Messiah*"))),
            comparison(.keyPath("items.@sum.price"), .lessThan, .variable("BUDGET")),
        ])
        #expect(try holdsForBook(predicate, variables: ["BUDGET": .integer16(10)]))
        #expect(try !holdsForBook(predicate, variables: ["BUDGET": .integer16(5)]))
    }

    @Test func recordsWorkAsPlainDictionaries() throws {
        let record = KeyValueRecord(identity: .string("r1"), ["a": .value(.integer16(1))])
        #expect(record.resolvedValue(forKey: "a") != nil)
        #expect(record.resolvedValue(forKey: "b") == nil)
        #expect(try comparison(.evaluatedObject, .equalTo, constant("r1")).evaluate(with: record))
    }

    @Test func filterKeepsMatchingObjectsInOrderAndSharesOneClock() throws {
        let records = (0..<50).map { KeyValueRecord(["n": .value(.integer64(Int64($0))), "d": .value(.null)]) }
        let odd = try FetchPredicate(format: "n BETWEEN {10, 20} AND NOT (n IN {12, 14})")
        #expect(try odd.filter(records).compactMap { $0.values["n"] }.count == 9)
        let dated = (0..<20).map { _ in KeyValueRecord(["d": .value(.date(Date()))]) }
        let pinned = try FetchPredicate(format: "d <= now()")
        #expect(try pinned.filter(dated).count == 20)
        #expect(throws: FetchPredicateError.self) { try FetchPredicate(format: "n == $MISSING").filter(records) }
    }
}
