import Foundation

@testable import Strata

/// Shorthands for building predicate trees by hand, and a small library of records.
enum EvaluationFixtures {
    static let bookID = ObjectID(storeIdentifier: "S", entityName: "Book", reference: .integer(1))
    static let authorID = ObjectID(storeIdentifier: "S", entityName: "Author", reference: .integer(10))
    static let agentID = ObjectID(storeIdentifier: "S", entityName: "Agent", reference: .integer(20))
    static let published = Date(timeIntervalSinceReferenceDate: 86_400)
    static let isbn = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    static func tagID(_ n: Int64) -> ObjectID {
        ObjectID(storeIdentifier: "S", entityName: "Tag", reference: .integer(n))
    }

    /// A book: attributes of every kind, a to-one author (whose publisher is empty and whose
    /// agent is set), tags (one without a name), items with prices, and no reviews.
    static func book() -> KeyValueRecord {
        let agent = KeyValueRecord(identity: .objectID(agentID), ["name": .value(.string("Ann"))])
        let author = KeyValueRecord(
            identity: .objectID(authorID),
            [
                "name": .value(.string("Frank Herbert")),
                "publisher": .value(.null),
                "agent": .object(agent),
            ]
        )
        let tags: [any KeyValueResolving] = [
            KeyValueRecord(identity: .objectID(tagID(1)), ["name": .value(.string("scifi"))]),
            KeyValueRecord(identity: .objectID(tagID(2)), ["name": .value(.string("Classic"))]),
            KeyValueRecord(identity: .objectID(tagID(3)), ["name": .value(.null)]),
        ]
        let items: [any KeyValueResolving] = [
            KeyValueRecord(["price": .value(.integer16(2)), "quantity": .value(.integer32(3))]),
            KeyValueRecord(["price": .value(.double(3.5)), "quantity": .value(.integer32(1))]),
            KeyValueRecord(["price": .value(.null), "quantity": .value(.integer32(0))]),
        ]
        return KeyValueRecord(
            identity: .objectID(bookID),
            [
                "title": .value(.string("Dune")),
                "subtitle": .value(.null),
                "pages": .value(.integer16(412)),
                "price": .value(.decimal(Decimal(string: "9.99")!)),
                "rating": .value(.double(4.5)),
                "weight": .value(.float(0.5)),
                "inPrint": .value(.boolean(true)),
                "published": .value(.date(published)),
                "isbn": .value(.uuid(isbn)),
                "cover": .value(.binary(Data([0xCA, 0xFE]))),
                "homepage": .value(.uri(URL(string: "https://dune.example/")!)),
                "author": .object(author),
                "editor": .value(.null),
                "tags": .objects(tags),
                "items": .objects(items),
                "reviews": .objects([]),
            ]
        )
    }

    /// A record with the single key `x`.
    static func x(_ value: AttributeValue) -> KeyValueRecord {
        KeyValueRecord(["x": .value(value)])
    }
}

/// Helpers for suites that evaluate predicates; a suite adopts this protocol to use them.
protocol EvaluationTesting {}

extension EvaluationTesting {
    /// `left operator right` as a predicate.
    func comparison(
        _ left: FetchExpression, _ op: ComparisonPredicate.Operator, _ right: FetchExpression,
        _ modifier: ComparisonPredicate.Modifier = .direct, options: StringComparisonOptions = []
    ) -> FetchPredicate {
        .comparison(ComparisonPredicate(left, op, right, modifier: modifier, options: options))
    }

    /// A constant expression.
    func constant(_ value: some AttributeValueConvertible) -> FetchExpression {
        .constant(value.attributeValue)
    }

    /// An aggregate `{…}` of constants.
    func aggregate(_ values: [AttributeValue]) -> FetchExpression {
        .aggregate(values.map { .constant($0) })
    }

    /// Whether `left operator right` holds between two constants.
    func holds(
        _ left: AttributeValue, _ op: ComparisonPredicate.Operator, _ right: AttributeValue,
        options: StringComparisonOptions = []
    ) throws(FetchPredicateError) -> Bool {
        try comparison(.constant(left), op, .constant(right), options: options).evaluate(with: KeyValueRecord([:]))
    }

    /// Whether `predicate` holds for the fixture book.
    func holdsForBook(_ predicate: FetchPredicate, variables: [String: AttributeValue] = [:])
        throws(FetchPredicateError)
        -> Bool
    {
        try predicate.evaluate(with: EvaluationFixtures.book(), variables: variables)
    }

    /// The error `body` throws; `nil` when it throws none.
    func predicateError(_ body: () throws(FetchPredicateError) -> Bool) -> FetchPredicateError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }
}
