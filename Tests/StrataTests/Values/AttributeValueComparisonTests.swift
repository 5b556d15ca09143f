import Foundation
import Testing

@testable import Strata

@Suite struct AttributeValueComparisonTests {
    private static let early = Date(timeIntervalSinceReferenceDate: 0)
    private static let late = Date(timeIntervalSinceReferenceDate: 60)
    private static let lowUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))
    private static let highUUID = UUID(uuid: (0xFF, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    private static let bookID = ObjectID(storeIdentifier: "S", entityName: "Book", reference: .integer(1))
    private static let otherBookID = ObjectID(storeIdentifier: "S", entityName: "Book", reference: .integer(2))

    /// `(a, b, a.compare(b))` with no options.
    static let orderings: [(AttributeValue, AttributeValue, ComparisonResult?)] = [
        (.integer16(3), .double(3), .orderedSame),
        (.integer16(3), .double(3.5), .orderedAscending),
        (.integer16(-1), .float(-1.5), .orderedDescending),
        (.float(0.5), .double(0.5), .orderedSame),
        (.float(0.1), .double(0.1), .orderedDescending),
        (.decimal(Decimal(string: "2.5")!), .integer64(2), .orderedDescending),
        (.decimal(Decimal(string: "2")!), .integer64(2), .orderedSame),
        (.decimal(Decimal(string: "0.1")!), .double(0.1), .orderedSame),
        (.decimal(Decimal(string: "0.1")!), .double(0.1.nextUp), .orderedAscending),
        (.decimal(Decimal(string: "1e30")!), .double(.infinity), .orderedAscending),
        (.decimal(Decimal(string: "-1e30")!), .double(-.infinity), .orderedDescending),
        (.decimal(Decimal(9_007_199_254_740_993)), .double(9_007_199_254_740_992), .orderedDescending),
        (.integer64(.max), .decimal(Decimal(Int64.max) + 1), .orderedAscending),
        (.boolean(true), .integer64(1), .orderedSame),
        (.boolean(false), .integer16(1), .orderedAscending),
        (.boolean(true), .double(0.5), .orderedDescending),
        (.integer64(9_007_199_254_740_993), .double(9_007_199_254_740_992), .orderedDescending),
        (.integer64(.max), .double(9_223_372_036_854_775_808.0), .orderedAscending),
        (.integer64(.min), .double(-9_223_372_036_854_775_808.0), .orderedSame),
        (.integer64(.min), .double(-1e19), .orderedDescending),
        (.integer32(0), .double(-0.0), .orderedSame),
        (.double(.nan), .double(.nan), nil),
        (.double(.nan), .integer64(1), nil),
        (.float(.nan), .decimal(1), nil),
        (.decimal(.nan), .decimal(1), nil),
        (.decimal(.nan), .integer16(1), nil),
        (.string("a"), .string("b"), .orderedAscending),
        (.string("B"), .string("a"), .orderedAscending),
        (.string("ab"), .string("a"), .orderedDescending),
        (.string(""), .string("a"), .orderedAscending),
        (.string("e\u{301}"), .string("\u{E9}"), .orderedAscending),
        (.string("z"), .string("😀"), .orderedAscending),
        (.string("ß"), .string("ss"), .orderedDescending),
        (.date(early), .date(late), .orderedAscending),
        (.date(late), .date(late), .orderedSame),
        (.binary(Data([1, 2])), .binary(Data([1, 3])), .orderedAscending),
        (.binary(Data([1, 2])), .binary(Data([1, 2, 0])), .orderedAscending),
        (.binary(Data()), .binary(Data()), .orderedSame),
        (.uuid(lowUUID), .uuid(highUUID), .orderedAscending),
        (.uri(URL(string: "https://a.example/b")!), .uri(URL(string: "https://a.example/a")!), .orderedDescending),
        (.objectID(bookID), .objectID(bookID), .orderedSame),
        (.objectID(bookID), .objectID(otherBookID), nil),
        (.null, .null, .orderedSame),
        (.null, .integer64(0), nil),
        (.string(""), .null, nil),
        (.integer64(1), .string("1"), nil),
        (.date(early), .double(0), nil),
        (.uuid(lowUUID), .string(lowUUID.uuidString), nil),
        (.binary(Data("a".utf8)), .string("a"), nil),
    ]

    @Test(arguments: orderings)
    func comparesWithoutOptions(_ a: AttributeValue, _ b: AttributeValue, _ expected: ComparisonResult?) {
        #expect(a.compare(b) == expected)
        #expect(b.compare(a) == expected.map(Self.reversed))
    }

    /// `(a, b, options, a.compare(b, options))` for strings.
    static let stringOrderings: [(String, String, StringComparisonOptions, ComparisonResult)] = [
        ("abc", "ABC", [], .orderedDescending),
        ("abc", "ABC", .caseInsensitive, .orderedSame),
        ("Straße", "STRASSE", .caseInsensitive, .orderedSame),
        ("ß", "ss", .caseInsensitive, .orderedSame),
        ("ß", "SS", .caseInsensitive, .orderedSame),
        ("ß", "s", .caseInsensitive, .orderedDescending),
        ("café", "cafe", .caseInsensitive, .orderedDescending),
        ("café", "cafe", .diacriticInsensitive, .orderedSame),
        ("café", "CAFE", .diacriticInsensitive, .orderedDescending),
        ("café", "CAFE", [.caseInsensitive, .diacriticInsensitive], .orderedSame),
        ("e\u{301}", "\u{E9}", .caseInsensitive, .orderedSame),
        ("e\u{301}", "\u{E9}", .diacriticInsensitive, .orderedSame),
        ("E\u{301}", "e", [.caseInsensitive, .diacriticInsensitive], .orderedSame),
        ("Ångström", "angstrom", [.caseInsensitive, .diacriticInsensitive], .orderedSame),
        ("İ", "i", .caseInsensitive, .orderedDescending),
        ("İ", "i", [.caseInsensitive, .diacriticInsensitive], .orderedSame),
        ("ı", "i", [.caseInsensitive, .diacriticInsensitive], .orderedDescending),
        ("I", "ı", .caseInsensitive, .orderedAscending),
        ("ΣΟΦΟΣ", "σοφος", .caseInsensitive, .orderedSame),
        ("😀", "😀", .caseInsensitive, .orderedSame),
        ("👍🏽", "👍", [.caseInsensitive, .diacriticInsensitive], .orderedDescending),
        ("a", "B", .caseInsensitive, .orderedAscending),
    ]

    @Test(arguments: stringOrderings)
    func comparesStringsWithOptions(
        _ a: String, _ b: String, _ options: StringComparisonOptions, _ expected: ComparisonResult
    ) {
        #expect(AttributeValue.string(a).compare(.string(b), options: options) == expected)
        #expect(AttributeValue.string(b).compare(.string(a), options: options) == Self.reversed(expected))
    }

    @Test func optionsDoNotAffectValuesOtherThanStrings() {
        let options: StringComparisonOptions = [.caseInsensitive, .diacriticInsensitive]
        #expect(AttributeValue.integer16(2).compare(.double(2), options: options) == .orderedSame)
        #expect(
            AttributeValue.binary(Data("A".utf8)).compare(.binary(Data("a".utf8)), options: options)
                == .orderedAscending)
        let upper = URL(string: "https://a.example/A")!
        let lower = URL(string: "https://a.example/a")!
        #expect(AttributeValue.uri(upper).compare(.uri(lower), options: options) == .orderedAscending)
    }

    @Test func equalityAgreesWithCompareForOrderedValues() {
        for (a, b, expected) in Self.orderings where expected != nil {
            #expect((a == b) == (expected == .orderedSame), "\(a) and \(b)")
        }
    }

    private static func reversed(_ result: ComparisonResult) -> ComparisonResult {
        switch result {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }
}
