import Foundation
import Testing

@testable import Strata

@Suite struct PredicateEvaluatorComparisonTests: EvaluationTesting {
    private static let early = Date(timeIntervalSinceReferenceDate: 0)
    private static let late = Date(timeIntervalSinceReferenceDate: 3600)
    private static let lowUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))
    private static let highUUID = UUID(uuid: (0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    private static let id1 = ObjectID(storeIdentifier: "S", entityName: "Book", reference: .integer(1))
    private static let id2 = ObjectID(storeIdentifier: "S", entityName: "Book", reference: .integer(2))

    /// Every ordering operator, for checking that a pair holds under exactly the expected ones.
    private static let orderingOperators: [ComparisonPredicate.Operator] = [
        .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo,
    ]

    /// `(a, b, the operators among ==, !=, <, <=, >, >= under which a op b holds)`.
    static let pairs: [(AttributeValue, AttributeValue, Set<ComparisonPredicate.Operator>)] = [
        (.null, .null, [.equalTo]),
        (.null, .integer64(3), [.notEqualTo]),
        (.integer64(3), .null, [.notEqualTo]),
        (.null, .string(""), [.notEqualTo]),
        (.null, .boolean(false), [.notEqualTo]),
        (.integer16(3), .double(3), [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        (.integer16(3), .double(3.25), [.notEqualTo, .lessThan, .lessThanOrEqualTo]),
        (.integer16(-32768), .double(-32768.5), [.notEqualTo, .greaterThan, .greaterThanOrEqualTo]),
        (.float(0.5), .double(0.5), [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        (.float(0.1), .double(0.1), [.notEqualTo, .greaterThan, .greaterThanOrEqualTo]),
        (.decimal(Decimal(string: "2.5")!), .integer64(2), [.notEqualTo, .greaterThan, .greaterThanOrEqualTo]),
        (.decimal(Decimal(Int64.max)), .integer64(.max), [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        (.decimal(Decimal(string: "0.1")!), .double(0.1), [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        (.boolean(true), .integer16(1), [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        (.boolean(false), .integer64(1), [.notEqualTo, .lessThan, .lessThanOrEqualTo]),
        (
            .integer64(9_007_199_254_740_993), .double(9_007_199_254_740_992),
            [.notEqualTo, .greaterThan, .greaterThanOrEqualTo]
        ),
        (.double(.nan), .double(.nan), [.notEqualTo]),
        (.double(.nan), .integer64(1), [.notEqualTo]),
        (.integer64(1), .float(.nan), [.notEqualTo]),
        (.double(.infinity), .integer64(.max), [.notEqualTo, .greaterThan, .greaterThanOrEqualTo]),
        (.string("a"), .string("b"), [.notEqualTo, .lessThan, .lessThanOrEqualTo]),
        (.string("B"), .string("a"), [.notEqualTo, .lessThan, .lessThanOrEqualTo]),
        (.string("\u{E9}"), .string("e\u{301}"), [.notEqualTo, .greaterThan, .greaterThanOrEqualTo]),
        (.string("😀"), .string("😀"), [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        (.string("1"), .integer64(1), [.notEqualTo]),
        (.string("a"), .integer64(1), [.notEqualTo]),
        (.date(early), .date(late), [.notEqualTo, .lessThan, .lessThanOrEqualTo]),
        (.date(late), .date(late), [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        (.date(early), .double(0), [.notEqualTo]),
        (.uuid(lowUUID), .uuid(highUUID), [.notEqualTo, .lessThan, .lessThanOrEqualTo]),
        (.uuid(lowUUID), .uuid(lowUUID), [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        (.uuid(lowUUID), .string(lowUUID.uuidString), [.notEqualTo]),
        (.binary(Data([1])), .binary(Data([1, 0])), [.notEqualTo, .lessThan, .lessThanOrEqualTo]),
        (.binary(Data([2])), .binary(Data([1, 0])), [.notEqualTo, .greaterThan, .greaterThanOrEqualTo]),
        (.binary(Data()), .binary(Data()), [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        (.objectID(id1), .objectID(id1), [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        (.objectID(id1), .objectID(id2), [.notEqualTo]),
        (.objectID(id1), .uri(id1.uriRepresentation), [.notEqualTo]),
        (
            .uri(URL(string: "https://a.example/a")!), .uri(URL(string: "https://a.example/b")!),
            [.notEqualTo, .lessThan, .lessThanOrEqualTo]
        ),
    ]

    @Test(arguments: pairs)
    func orderingOperatorsFollowCompare(
        _ a: AttributeValue, _ b: AttributeValue, _ holding: Set<ComparisonPredicate.Operator>
    ) throws {
        for op in Self.orderingOperators {
            #expect(try holds(a, op, b) == holding.contains(op), "\(a) \(op.rawValue) \(b)")
        }
    }

    /// `(a, b, options, the operators that hold)` for strings under options.
    static let stringPairs: [(String, String, StringComparisonOptions, Set<ComparisonPredicate.Operator>)] = [
        ("abc", "ABC", [], [.notEqualTo, .greaterThan, .greaterThanOrEqualTo]),
        ("abc", "ABC", .caseInsensitive, [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        ("Straße", "STRASSE", .caseInsensitive, [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        ("straße", "strasse", [], [.notEqualTo, .greaterThan, .greaterThanOrEqualTo]),
        ("résumé", "resume", .diacriticInsensitive, [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        ("résumé", "RESUME", .diacriticInsensitive, [.notEqualTo, .greaterThan, .greaterThanOrEqualTo]),
        (
            "Résumé", "resume", [.caseInsensitive, .diacriticInsensitive],
            [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]
        ),
        ("e\u{301}", "\u{E9}", .caseInsensitive, [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        ("e\u{301}", "e", .diacriticInsensitive, [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]),
        ("İstanbul", "istanbul", .caseInsensitive, [.notEqualTo, .greaterThan, .greaterThanOrEqualTo]),
        (
            "İstanbul", "istanbul", [.caseInsensitive, .diacriticInsensitive],
            [.equalTo, .lessThanOrEqualTo, .greaterThanOrEqualTo]
        ),
        (
            "ısparta", "isparta", [.caseInsensitive, .diacriticInsensitive],
            [.notEqualTo, .greaterThan, .greaterThanOrEqualTo]
        ),
        ("a", "B", .caseInsensitive, [.notEqualTo, .lessThan, .lessThanOrEqualTo]),
    ]

    @Test(arguments: stringPairs)
    func stringOptionsApplyToEveryOrderingOperator(
        _ a: String, _ b: String, _ options: StringComparisonOptions, _ holding: Set<ComparisonPredicate.Operator>
    ) throws {
        for op in Self.orderingOperators {
            #expect(
                try holds(.string(a), op, .string(b), options: options) == holding.contains(op),
                "\(a) \(op.rawValue) \(b)")
        }
    }

    @Test func nullKeyPathIsNotEqualToAValue() throws {
        let record = EvaluationFixtures.x(.null)
        #expect(try comparison(.keyPath("x"), .notEqualTo, constant(3)).evaluate(with: record))
        #expect(try !comparison(.keyPath("x"), .equalTo, constant(3)).evaluate(with: record))
        #expect(try comparison(.keyPath("x"), .equalTo, .constant(.null)).evaluate(with: record))
        #expect(try !comparison(.keyPath("x"), .lessThan, constant(3)).evaluate(with: record))
        #expect(try !comparison(.keyPath("x"), .greaterThanOrEqualTo, constant(3)).evaluate(with: record))
        #expect(try !comparison(.keyPath("x"), .lessThanOrEqualTo, .constant(.null)).evaluate(with: record))
    }

    @Test func betweenIncludesBothBounds() throws {
        let bounds = aggregate([.integer16(1), .double(3)])
        for (value, expected) in [(0.5, false), (1, true), (2, true), (3, true), (3.01, false)] {
            #expect(try comparison(constant(value), .between, bounds).evaluate(with: KeyValueRecord([:])) == expected)
        }
        let days = aggregate([.date(Self.early), .date(Self.late)])
        #expect(
            try comparison(constant(Date(timeIntervalSinceReferenceDate: 60)), .between, days).evaluate(
                with: KeyValueRecord([:])))
        let letters = aggregate([.string("b"), .string("d")])
        #expect(
            try comparison(constant("C"), .between, letters, options: .caseInsensitive).evaluate(
                with: KeyValueRecord([:])))
        #expect(try !comparison(constant("C"), .between, letters).evaluate(with: KeyValueRecord([:])))
    }

    @Test func betweenIsFalseForNullOrUnorderedValues() throws {
        let none = KeyValueRecord([:])
        #expect(
            try !comparison(.constant(.null), .between, aggregate([.integer16(1), .integer16(3)])).evaluate(with: none))
        #expect(try !comparison(constant(2), .between, aggregate([.null, .integer16(3)])).evaluate(with: none))
        #expect(try !comparison(constant(2), .between, aggregate([.string("a"), .string("z")])).evaluate(with: none))
        #expect(
            try !comparison(constant(Double.nan), .between, aggregate([.integer16(1), .integer16(3)])).evaluate(
                with: none))
    }

    @Test func betweenNeedsAPair() {
        let none = KeyValueRecord([:])
        for right in [
            aggregate([.integer16(1)]), aggregate([.integer16(1), .integer16(2), .integer16(3)]), constant(2),
        ] {
            let error = predicateError { () throws(FetchPredicateError) -> Bool in
                try comparison(constant(2), .between, right).evaluate(with: none)
            }
            #expect(error?.code == .evaluation)
            #expect(error?.message.contains("BETWEEN") == true)
        }
    }

    @Test func inTestsMembershipOfACollection() throws {
        let none = KeyValueRecord([:])
        let numbers = aggregate([.integer16(1), .double(2.5), .decimal(3)])
        #expect(try comparison(constant(3), .in, numbers).evaluate(with: none))
        #expect(try comparison(constant(Float(2.5)), .in, numbers).evaluate(with: none))
        #expect(try !comparison(constant(2), .in, numbers).evaluate(with: none))
        #expect(try !comparison(.constant(.null), .in, numbers).evaluate(with: none))
        #expect(try comparison(.constant(.null), .in, aggregate([.integer16(1), .null])).evaluate(with: none))
        #expect(try !comparison(constant(1), .in, aggregate([])).evaluate(with: none))
        let words = aggregate([.string("alpha"), .string("Straße")])
        #expect(try !comparison(constant("ALPHA"), .in, words).evaluate(with: none))
        #expect(try comparison(constant("ALPHA"), .in, words, options: .caseInsensitive).evaluate(with: none))
        #expect(try comparison(constant("strasse"), .in, words, options: .caseInsensitive).evaluate(with: none))
        #expect(try !comparison(constant("1"), .in, aggregate([.integer16(1)])).evaluate(with: none))
    }

    @Test func inWithAStringTestsForASubstring() throws {
        let none = KeyValueRecord([:])
        #expect(try comparison(constant("ell"), .in, constant("hello")).evaluate(with: none))
        #expect(try !comparison(constant("ELL"), .in, constant("hello")).evaluate(with: none))
        #expect(try comparison(constant("ELL"), .in, constant("hello"), options: .caseInsensitive).evaluate(with: none))
        #expect(try comparison(constant(""), .in, constant("hello")).evaluate(with: none))
        #expect(try !comparison(.constant(.null), .in, constant("hello")).evaluate(with: none))
        #expect(try !comparison(constant("a"), .in, .constant(.null)).evaluate(with: none))
    }

    @Test func inRejectsOtherRightSides() {
        let error = predicateError { () throws(FetchPredicateError) -> Bool in
            try comparison(constant(1), .in, constant(5)).evaluate(with: KeyValueRecord([:]))
        }
        #expect(error?.code == .evaluation)
    }

    @Test func objectsCompareThroughTheirIdentity() throws {
        let book = EvaluationFixtures.book()
        let authorID = AttributeValue.objectID(EvaluationFixtures.authorID)
        #expect(try comparison(.keyPath("author"), .equalTo, .constant(authorID)).evaluate(with: book))
        #expect(try !comparison(.keyPath("author"), .notEqualTo, .constant(authorID)).evaluate(with: book))
        #expect(try comparison(.evaluatedObject, .equalTo, constant(EvaluationFixtures.bookID)).evaluate(with: book))
        #expect(try !comparison(.evaluatedObject, .equalTo, .constant(authorID)).evaluate(with: book))
        #expect(
            try comparison(.evaluatedObject, .in, aggregate([authorID, .objectID(EvaluationFixtures.bookID)])).evaluate(
                with: book))
        #expect(try comparison(.keyPath("author"), .in, aggregate([authorID])).evaluate(with: book))
        #expect(try !comparison(.keyPath("author"), .equalTo, .constant(.null)).evaluate(with: book))
        #expect(try comparison(.keyPath("editor"), .equalTo, .constant(.null)).evaluate(with: book))
        #expect(
            try comparison(.keyPath("author.agent"), .equalTo, constant(EvaluationFixtures.agentID)).evaluate(
                with: book))
    }

    @Test func containsOnACollectionTestsMembership() throws {
        let book = EvaluationFixtures.book()
        #expect(try comparison(.keyPath("tags"), .contains, constant(EvaluationFixtures.tagID(2))).evaluate(with: book))
        #expect(
            try !comparison(.keyPath("tags"), .contains, constant(EvaluationFixtures.tagID(9))).evaluate(with: book))
        #expect(try comparison(.keyPath("tags.name"), .contains, constant("scifi")).evaluate(with: book))
        #expect(try !comparison(.keyPath("tags.name"), .contains, constant("sci")).evaluate(with: book))
        #expect(
            try comparison(.keyPath("tags.name"), .contains, constant("CLASSIC"), options: .caseInsensitive).evaluate(
                with: book))
        #expect(try comparison(.keyPath("tags.name"), .contains, .constant(.null)).evaluate(with: book))
        #expect(
            try !comparison(.keyPath("reviews"), .contains, constant(EvaluationFixtures.tagID(1))).evaluate(with: book))
        #expect(
            try comparison(aggregate([.integer16(1), .integer16(2)]), .contains, constant(2.0)).evaluate(with: book))
        #expect(try comparison(constant(EvaluationFixtures.tagID(1)), .in, .keyPath("tags")).evaluate(with: book))
    }

    @Test func comparingACollectionDirectlyIsAnErrorNamingTheKeyPath() {
        let book = EvaluationFixtures.book()
        let cases: [FetchPredicate] = [
            comparison(.keyPath("tags.name"), .equalTo, constant("scifi")),
            comparison(.keyPath("tags.name"), .lessThan, constant("scifi")),
            comparison(.keyPath("tags.name"), .beginsWith, constant("sci")),
            comparison(.keyPath("tags.name"), .in, aggregate([.string("scifi")])),
            comparison(.keyPath("tags.name"), .between, aggregate([.string("a"), .string("z")])),
            comparison(constant("scifi"), .equalTo, .keyPath("tags.name")),
        ]
        for predicate in cases {
            let error = predicateError { () throws(FetchPredicateError) -> Bool in try predicate.evaluate(with: book) }
            #expect(error?.code == .evaluation)
            #expect(error?.message.contains("tags.name") == true, "\(error?.message ?? "no error")")
        }
    }

    @Test func collectionOperatorsMakeCollectionsComparable() throws {
        let book = EvaluationFixtures.book()
        #expect(try comparison(.keyPath("tags.@count"), .equalTo, constant(3)).evaluate(with: book))
        #expect(try comparison(.keyPath("items.@sum.price"), .equalTo, constant(5.5)).evaluate(with: book))
        #expect(try comparison(.keyPath("reviews.@count"), .equalTo, constant(0)).evaluate(with: book))
    }
}
