import Foundation
import Testing

@testable import StrataSQLite

@Suite struct BinaryPropertyListTests {
    /// A list of every kind the reader reads, written by Foundation.
    static var sample: [String: Any] {
        [
            "text": "SQLite", "unicode": "Ünïcødé — 東京", "long": String(repeating: "x", count: 300),
            "small": 7, "large": 1 << 40, "negative": -3, "real": 2.5,
            "date": Date(timeIntervalSinceReferenceDate: 12.25),
            "yes": true, "no": false, "bytes": Data(0..<32), "short": Data([1, 2]),
            "list": ["a", "b", "c"], "nested": ["inner": ["deep": Data(count: 3)]],
        ]
    }

    static func encoded(_ plist: [String: Any] = sample) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    @Test func readsWhatFoundationWrites() throws {
        let value = try #require(BinaryPropertyList.value(of: try Self.encoded()))
        guard case .dictionary(let plist) = value else {
            Issue.record("The top value is \(value), not a dictionary.")
            return
        }
        #expect(plist["text"] == .string("SQLite"))
        #expect(plist["unicode"] == .string("Ünïcødé — 東京"))
        #expect(plist["long"] == .string(String(repeating: "x", count: 300)))
        #expect(
            plist["small"] == .integer(7) && plist["large"] == .integer(1 << 40) && plist["negative"] == .integer(-3))
        #expect(plist["real"] == .real(2.5))
        #expect(plist["date"] == .date(Date(timeIntervalSinceReferenceDate: 12.25)))
        #expect(plist["yes"] == .boolean(true) && plist["no"] == .boolean(false))
        #expect(plist["bytes"] == .data(Data(0..<32)) && plist["short"] == .data(Data([1, 2])))
        #expect(plist["list"] == .array([.string("a"), .string("b"), .string("c")]))
        #expect(plist["nested"] == .dictionary(["inner": .dictionary(["deep": .data(Data(count: 3))])]))
        #expect(plist.count == Self.sample.count)
    }

    @Test func anythingElseIsNilNeverATrap() throws {
        let bytes = try Self.encoded()
        for length in 0..<bytes.count {
            _ = BinaryPropertyList.value(of: bytes.prefix(length))
        }
        var flipped = bytes
        for index in flipped.indices {
            flipped[index] ^= 0xFF
            _ = BinaryPropertyList.value(of: flipped)
            flipped[index] ^= 0xFF
        }
        #expect(BinaryPropertyList.value(of: Data("not a plist".utf8)) == nil)
        let xml = try PropertyListSerialization.data(fromPropertyList: Self.sample, format: .xml, options: 0)
        #expect(BinaryPropertyList.value(of: xml) == nil)
    }
}
