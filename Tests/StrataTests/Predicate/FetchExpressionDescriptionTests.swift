import Foundation
import Testing

@testable import Strata

@Suite struct FetchExpressionDescriptionTests {
    static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    /// Every kind of constant, its description, and back.
    static let constants: [(AttributeValue, String)] = [
        (.null, "nil"),
        (.integer64(-3), "-3"),
        (.integer64(.min), "-9223372036854775808"),
        (.integer16(7), #"CAST(7, "Int16")"#),
        (.integer16(.min), #"CAST(-32768, "Int16")"#),
        (.integer32(-7), #"CAST(-7, "Int32")"#),
        (.decimal(Decimal(string: "-1.25")!), #"CAST("-1.25", "Decimal")"#),
        (
            .decimal(Decimal(string: "12345678901234567890.123456789")!),
            #"CAST("12345678901234567890.123456789", "Decimal")"#
        ),
        (.double(2.5), "2.5"),
        (.double(3), "3.0"),
        (.double(-0.0), "-0.0"),
        (.double(1e100), "1e+100"),
        (.double(.leastNonzeroMagnitude), "5e-324"),
        (.double(.nan), #"CAST("nan", "Double")"#),
        (.double(.infinity), #"CAST("inf", "Double")"#),
        (.double(-.infinity), #"CAST("-inf", "Double")"#),
        (.float(1.5), #"CAST("1.5", "Float")"#),
        (.float(0.1), #"CAST("0.1", "Float")"#),
        (.float(.nan), #"CAST("nan", "Float")"#),
        (.boolean(true), "YES"),
        (.boolean(false), "NO"),
        (.string("plain"), #""plain""#),
        (.string("q\"b\\n\n\t\r\u{1}\u{7F}é😀"), #""q\"b\\n\n\t\r\u0001\u007Fé😀""#),
        (.string("\u{301}starts with a mark"), "\"\u{301}starts with a mark\""),
        (.date(Date(timeIntervalSinceReferenceDate: 721_692_800.5)), #"CAST(721692800.5, "NSDate")"#),
        (.date(Date(timeIntervalSinceReferenceDate: -1)), #"CAST(-1.0, "NSDate")"#),
        (.date(Date(timeIntervalSinceReferenceDate: .infinity)), #"CAST("inf", "NSDate")"#),
        (.binary(Data([0, 255, 16])), #"CAST("00ff10", "Data")"#),
        (.binary(Data()), #"CAST("", "Data")"#),
        (.uuid(uuid), #"CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "UUID")"#),
        (.uri(URL(string: "https://example.com/a%20b?q=1#f")!), #"CAST("https://example.com/a%20b?q=1#f", "URL")"#),
        (
            .objectID(ObjectID(storeIdentifier: "S1", entityName: "Post", reference: .integer(12))),
            #"CAST("x-strata://S1/Post/p12", "ObjectID")"#
        ),
        (
            .objectID(ObjectID(storeIdentifier: nil, entityName: "Post", reference: .temporary(uuid))),
            #"CAST("x-strata:///Post/tE621E1F8-C36C-495A-93FC-0C247A3E6E5F", "ObjectID")"#
        ),
        (
            .objectID(ObjectID(storeIdentifier: "a/b", entityName: "Ü x", reference: .string("k/1 %"))),
            #"CAST("x-strata://a%2Fb/%C3%9C%20x/sk%2F1%20%25", "ObjectID")"#
        ),
    ]

    @Test func constantsOfEveryKindDescribeAndParseBackToTheSameKind() throws {
        for (constant, text) in Self.constants {
            let expression = FetchExpression.constant(constant)
            #expect(expression.description == text)
            let parsed = try FetchPredicate(format: "SELF == " + text)
            guard case .comparison(let comparison) = parsed, case .constant(let back) = comparison.right else {
                Issue.record("\(text) parsed as \(parsed)")
                continue
            }
            #expect(back == constant, "\(text)")
            #expect(back.attributeType == constant.attributeType, "\(text)")
            #expect(PredicateLiteral.format(back) == text)
        }
    }

    @Test func keysSpelledLikeKeywordsAreEscaped() {
        #expect(FetchExpression.keyPath("in").description == "#in")
        #expect(FetchExpression.keyPath("Self.name").description == "#Self.name")
        #expect(FetchExpression.keyPath("order.in").description == "order.in")
        #expect(FetchExpression.keyPath("inside").description == "inside")
        #expect(FetchExpression.function("cast", [.evaluatedObject]).description == "#cast(SELF)")
    }

    @Test func compositeExpressions() {
        let subquery = FetchExpression.subquery(
            collection: .keyPath("items"), variable: "x",
            predicate: compare(.keyPathOn(.variable("x"), "price"), .greaterThan, value(.integer64(10))))
        #expect(subquery.description == "SUBQUERY(items, $x, $x.price > 10)")
        #expect(
            FetchExpression.keyPathOn(subquery, "@count").description == "SUBQUERY(items, $x, $x.price > 10).@count")
        #expect(
            FetchExpression.aggregate([value(.integer64(1)), .variable("V"), .evaluatedObject]).description
                == "{1, $V, SELF}")
        #expect(FetchExpression.function("now", []).description == "now()")
        #expect(FetchExpression.keyPathOn(value(.integer64(5)), "x").description == "5.x")
    }

    @Test func keyPathsOnConstantsParseBack() throws {
        for base in [
            value(.integer64(5)), value(.double(1.5)), value(.double(1e20)), value(.string("s")), value(.null),
        ] {
            let expression = FetchExpression.keyPathOn(base, "x.@count")
            let predicate = compare(expression, .equalTo, .evaluatedObject)
            #expect(try FetchPredicate(format: predicate.description) == predicate, "\(predicate)")
        }
    }
}
