import Foundation
import Strata

/// Values and nodes covering every case of the binary codec, and a bit-exact comparison.
enum BinaryCodecFixtures {
    static let store = "6C1E2D3A-0000-4000-8000-000000000001"

    /// One value of every case, with the edge values the codec must keep bit for bit.
    static let values: [AttributeValue] = [
        .null,
        .integer16(.min), .integer16(.max), .integer16(0), .integer16(-1),
        .integer32(.min), .integer32(.max),
        .integer64(.min), .integer64(.max), .integer64(0), .integer64(300),
        .decimal(Decimal(string: "12345678901234567890123456789012345678")!),
        .decimal(Decimal(string: "-0.000000000000000000000000000001")!),
        .decimal(Decimal(string: "1e127")!), .decimal(Decimal(string: "1e-128")!),
        .decimal(.zero), .decimal(.nan), .decimal(Decimal(string: "0.1")!),
        .double(0.1), .double(-0.0), .double(.infinity), .double(-.infinity), .double(.nan),
        .double(Double(bitPattern: 0x7FF8_0000_DEAD_BEEF)), .double(.leastNonzeroMagnitude),
        .double(.greatestFiniteMagnitude),
        .float(-0.0), .float(.nan), .float(.infinity), .float(Float(bitPattern: 0x7FC0_1234)),
        .float(.leastNonzeroMagnitude),
        .string(""), .string("Ada"), .string("e\u{301}"), .string("\u{E9}"), .string("NUL\u{0}inside"),
        .string("👩‍👩‍👧 مرحبا"), .string(String(repeating: "x", count: 70_000)),
        .boolean(true), .boolean(false),
        .date(Date(timeIntervalSinceReferenceDate: -1e9 + 0.000_000_1)), .date(Date(timeIntervalSince1970: -1.5)),
        .date(Date(timeIntervalSinceReferenceDate: -0.0)),
        .binary(Data()), .binary(Data([0, 1, 254, 255])),
        .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
        .uri(URL(string: "https://example.com/a%20b?c=d#e")!), .uri(URL(string: "file:///tmp/x")!),
        .objectID(ObjectID(storeIdentifier: store, entityName: "Person", reference: .integer(7))),
        .objectID(ObjectID(storeIdentifier: "other", entityName: "Täm", reference: .string("key/1"))),
        .objectID(.temporary(entityName: "Person")),
        .objectID(ObjectID(storeIdentifier: store, entityName: "Person", reference: .integer(.min))),
    ]

    /// A node with every value under its own key and two to-many relationships.
    static var node: StoreNode {
        let id = ObjectID(storeIdentifier: store, entityName: "Person", reference: .integer(42))
        var values: [String: AttributeValue] = [:]
        for (index, value) in Self.values.enumerated() { values["v\(index)"] = value }
        let friend = ObjectID(storeIdentifier: store, entityName: "Person", reference: .integer(3))
        let team = ObjectID(storeIdentifier: store, entityName: "Team", reference: .integer(1))
        return StoreNode(
            snapshot: Snapshot(objectID: id, values: values, version: 5),
            toManyRelationships: ["friends": [friend, id, friend], "teams": [team], "none": []])
    }

    /// Whether `a` and `b` are the same case with the same bits (unlike `==`, which compares numbers).
    static func identical(_ a: AttributeValue, _ b: AttributeValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.integer16(let x), .integer16(let y)): x == y
        case (.integer32(let x), .integer32(let y)): x == y
        case (.integer64(let x), .integer64(let y)): x == y
        case (.decimal(let x), .decimal(let y)): decimalBits(x) == decimalBits(y)
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
        case (.float(let x), .float(let y)): x.bitPattern == y.bitPattern
        case (.string(let x), .string(let y)): Array(x.unicodeScalars) == Array(y.unicodeScalars)
        case (.boolean(let x), .boolean(let y)): x == y
        case (.date(let x), .date(let y)):
            x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
        case (.binary(let x), .binary(let y)): x == y
        case (.uuid(let x), .uuid(let y)): x == y
        case (.uri(let x), .uri(let y)): x.absoluteString == y.absoluteString
        case (.objectID(let x), .objectID(let y)): x == y
        default: false
        }
    }

    /// Whether the nodes hold identical values and equal everything else.
    static func identical(_ a: StoreNode, _ b: StoreNode) -> Bool {
        a.snapshot.objectID == b.snapshot.objectID && a.snapshot.version == b.snapshot.version
            && a.toManyRelationships == b.toManyRelationships
            && a.snapshot.values.keys.sorted() == b.snapshot.values.keys.sorted()
            && a.snapshot.values.allSatisfy { key, value in b.snapshot.values[key].map { identical(value, $0) } ?? false
            }
    }

    /// A decimal's sign, exponent and significand: equal decimals written differently differ here.
    private static func decimalBits(_ decimal: Decimal) -> String {
        decimal.isNaN ? "NaN" : "\(decimal.sign) \(decimal.exponent) \(decimal.significand)"
    }
}
