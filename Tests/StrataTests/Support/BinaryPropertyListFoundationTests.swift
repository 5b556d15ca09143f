import Foundation
import Strata
import Testing

/// The core's binary property-list reader against what Foundation writes, and against every
/// truncation and flipped byte of it.
@Suite struct BinaryPropertyListFoundationTests {
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
        let value = try BinaryPropertyList.parse(try Self.encoded(), file: "sample")
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

    @Test func anythingElseIsATypedErrorNeverATrap() throws {
        let bytes = try Self.encoded()
        for length in 0..<bytes.count {
            #expect(throws: ModelError.self) { try BinaryPropertyList.parse(bytes.prefix(length), file: "cut") }
        }
        var flipped = bytes
        for index in flipped.indices {
            flipped[index] ^= 0xFF
            _ = try? BinaryPropertyList.parse(flipped, file: "flipped")
            flipped[index] ^= 0xFF
        }
        let error = #expect(throws: ModelError.self) {
            try BinaryPropertyList.parse(Data("not a plist".utf8), file: "words.plist")
        }
        #expect(error?.message.contains("words.plist") == true)
        let xml = try PropertyListSerialization.data(fromPropertyList: Self.sample, format: .xml, options: 0)
        #expect(throws: ModelError.self) { try BinaryPropertyList.parse(xml, file: "xml") }
    }
}
