import Foundation
import Testing

@testable import Strata

@Suite struct AttributeValueHashableTests {
    private static let objectID = ObjectID(storeIdentifier: "S", entityName: "Book", reference: .integer(7))
    private static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!

    /// Pairs of values that are equal, whatever their cases.
    static let equalPairs: [(AttributeValue, AttributeValue)] = [
        (.integer16(3), .integer32(3)),
        (.integer16(3), .integer64(3)),
        (.integer32(-7), .integer64(-7)),
        (.integer16(3), .double(3)),
        (.integer64(3), .float(3)),
        (.integer64(3), .decimal(3)),
        (.double(3), .decimal(3)),
        (.float(3), .decimal(3)),
        (.float(0.5), .double(0.5)),
        (.float(0.5), .decimal(Decimal(string: "0.5")!)),
        (.double(0.1), .decimal(Decimal(string: "0.1")!)),
        (.boolean(true), .integer64(1)),
        (.boolean(false), .integer16(0)),
        (.boolean(true), .double(1)),
        (.boolean(false), .decimal(0)),
        (.double(-0.0), .integer64(0)),
        (.double(-0.0), .double(0)),
        (.integer64(.max), .decimal(Decimal(Int64.max))),
        (.integer64(.min), .double(-9_223_372_036_854_775_808.0)),
        (.integer16(.min), .integer64(-32768)),
        (.integer32(.max), .double(2_147_483_647)),
        (.double(1e300), .double(1e300)),
        (.double(.infinity), .float(.infinity)),
        (.double(.nan), .double(.nan)),
        (.double(.nan), .float(.nan)),
        (.decimal(.nan), .double(.nan)),
        (.decimal(Decimal(string: "1e30")!), .double(1e30)),
        (.decimal(Decimal(string: "0.3333333333333333")!), .double(1.0 / 3.0)),
        (.decimal(Decimal(string: "4503599627370495.5")!), .double(4_503_599_627_370_495.5)),
        (.null, .null),
        (.string("abc"), .string("abc")),
        (.string("é"), .string("\u{E9}")),
        (.date(Date(timeIntervalSinceReferenceDate: 5)), .date(Date(timeIntervalSinceReferenceDate: 5))),
        (.binary(Data([1, 2])), .binary(Data([1, 2]))),
        (.uuid(uuid), .uuid(uuid)),
        (.uri(URL(string: "https://a.example/x")!), .uri(URL(string: "https://a.example/x")!)),
        (.objectID(objectID), .objectID(objectID)),
    ]

    /// Pairs of values that are not equal.
    static let unequalPairs: [(AttributeValue, AttributeValue)] = [
        (.integer16(3), .integer16(4)),
        (.integer64(9_007_199_254_740_993), .double(9_007_199_254_740_992)),
        (.decimal(Decimal(9_007_199_254_740_993)), .double(9_007_199_254_740_992)),
        (.decimal(Decimal(string: "9007199254740993.5")!), .double(9_007_199_254_740_994)),
        (.decimal(Decimal(string: "0.1")!), .float(0.1)),
        (.decimal(.nan), .decimal(1)),
        (.integer64(.max), .double(9_223_372_036_854_775_808.0)),
        (.float(0.1), .double(0.1)),
        (.double(0.5), .integer64(0)),
        (.double(.nan), .integer64(0)),
        (.boolean(true), .integer64(2)),
        (.boolean(true), .string("true")),
        (.integer64(1), .string("1")),
        (.null, .integer64(0)),
        (.null, .string("")),
        (.string("é"), .string("e\u{301}")),
        (.string("a"), .string("A")),
        (.string("ß"), .string("ss")),
        (.date(Date(timeIntervalSinceReferenceDate: 5)), .double(5)),
        (.binary(Data([1, 2])), .binary(Data([1, 2, 0]))),
        (.uuid(uuid), .string(uuid.uuidString)),
        (.uri(URL(string: "https://a.example/x")!), .string("https://a.example/x")),
        (.objectID(objectID), .objectID(ObjectID(storeIdentifier: "S", entityName: "Book", reference: .integer(8)))),
        (.objectID(objectID), .uri(objectID.uriRepresentation)),
    ]

    @Test(arguments: equalPairs)
    func equalValuesHashAlike(_ a: AttributeValue, _ b: AttributeValue) {
        #expect(a == b)
        #expect(b == a)
        #expect(a.hashValue == b.hashValue)
        #expect(Set([a, b]).count == 1)
    }

    @Test(arguments: unequalPairs)
    func unequalValuesDiffer(_ a: AttributeValue, _ b: AttributeValue) {
        #expect(a != b)
        #expect(b != a)
    }

    @Test func everyValueEqualsItself() {
        for (a, b) in Self.equalPairs + Self.unequalPairs {
            #expect(a == a)
            #expect(b == b)
        }
    }

    @Test func nanIsUsableAsADictionaryKey() {
        var counts: [AttributeValue: Int] = [:]
        counts[.double(.nan), default: 0] += 1
        counts[.float(.nan), default: 0] += 1
        counts[.double(-.nan), default: 0] += 1
        #expect(counts.count == 1)
        #expect(counts[.double(.nan)] == 3)
    }

    @Test func numbersOfEveryWidthCollapseInASet() {
        let values: Set<AttributeValue> = [
            .integer16(1), .integer32(1), .integer64(1), .double(1), .float(1), .decimal(1), .boolean(true),
        ]
        #expect(values.count == 1)
    }

    @Test func hashIsConsistentOverAWideRangeOfNumbers() {
        var samples: [Int64] = [
            0, 1, -1, 255, 256, 32767, -32768, 65536, 1 << 31, (1 << 31) - 1, 1 << 53, (1 << 53) + 1,
        ]
        samples += [.max, .min, .max - 1, .min + 1]
        for n in samples {
            var forms: [AttributeValue] = [.integer64(n), .decimal(Decimal(n))]
            if let small = Int16(exactly: n) { forms.append(.integer16(small)) }
            if let medium = Int32(exactly: n) { forms.append(.integer32(medium)) }
            if let double = Double(exactly: n) { forms.append(.double(double)) }
            if let float = Float(exactly: n) { forms.append(.float(float)) }
            for a in forms {
                for b in forms {
                    #expect(a == b, "\(a) == \(b)")
                    #expect(a.hashValue == b.hashValue, "hash(\(a)) == hash(\(b))")
                }
            }
        }
    }

    @Test func fractionalNumbersHashAlikeAcrossKinds() {
        for text in ["0.5", "-0.25", "1.75", "1024.125", "0.1", "3.3"] {
            let double = Double(text)!
            let decimal = Decimal(string: text)!
            #expect(AttributeValue.double(double) == .decimal(decimal))
            #expect(AttributeValue.double(double).hashValue == AttributeValue.decimal(decimal).hashValue)
        }
    }

    @Test func stringsHashByUnicodeScalars() {
        let composed = AttributeValue.string("\u{E9}")
        let decomposed = AttributeValue.string("e\u{301}")
        #expect(composed != decomposed)
        #expect(Set([composed, decomposed]).count == 2)
        #expect(Set([AttributeValue.string("👍🏽"), .string("👍🏽")]).count == 1)
    }

    /// Numbers in every width built from the same few quantities, and some neighbours.
    static let numberPool: [AttributeValue] = {
        var pool: [AttributeValue] = []
        let texts = [
            "0", "1", "-1", "0.5", "-0.5", "0.1", "0.2", "0.3", "2.5", "3", "1000000", "32767", "32768", "-32768",
            "2147483647", "2147483648", "9007199254740992", "9007199254740993", "9223372036854775807",
            "-9223372036854775808", "1e20", "1e30", "0.3333333333333333", "123.456",
        ]
        for text in texts {
            let decimal = Decimal(string: text)!
            let double = Double(text)!
            pool += [.decimal(decimal), .double(double), .float(Float(text)!), .double(double.nextUp)]
            if let whole = Int64(text) {
                pool.append(.integer64(whole))
                if let small = Int16(exactly: whole) { pool.append(.integer16(small)) }
                if let medium = Int32(exactly: whole) { pool.append(.integer32(medium)) }
            }
        }
        return pool + [.boolean(true), .boolean(false), .double(.infinity), .double(-.infinity), .float(.nan)]
    }()

    @Test func everyPairOfNumbersHashesConsistentlyWithEquality() {
        for a in Self.numberPool {
            for b in Self.numberPool {
                #expect((a == b) == (b == a), "\(a) and \(b)")
                if a == b { #expect(a.hashValue == b.hashValue, "\(a) == \(b) but their hashes differ") }
            }
        }
    }
}
