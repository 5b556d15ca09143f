import Foundation
import Strata
import Testing

@testable import StrataSQLite

/// Values are kept as Core Data keeps them, and the few Core Data would lose are kept whole.
@Suite struct SQLiteValueCodecTests {
    @Test(arguments: [
        (AttributeValue.integer16(-7), SQLiteValue.integer(-7)),
        (.integer32(.max), .integer(Int64(Int32.max))),
        (.integer64(.min), .integer(.min)),
        (.boolean(true), .integer(1)),
        (.boolean(false), .integer(0)),
        (.double(1.25), .real(1.25)),
        (.float(0.5), .real(0.5)),
        (.date(Date(timeIntervalSinceReferenceDate: 526_927_588.94)), .real(526_927_588.94)),
        (.decimal(Decimal(string: "10.11")!), .real(10.11)),
        (.decimal(42), .integer(42)),
        (.string("cafe\u{301}"), .text("cafe\u{301}")),
        (.uri(URL(string: "https://example.com/a?b=c")!), .text("https://example.com/a?b=c")),
        (.binary(Data([0, 1, 2])), .blob([0, 1, 2])),
        (
            .uuid(UUID(uuidString: "7E2E4EF6-BEB6-4DF6-8A3B-0123456789AB")!),
            .blob([0x7E, 0x2E, 0x4E, 0xF6, 0xBE, 0xB6, 0x4D, 0xF6, 0x8A, 0x3B, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB])
        ),
        (.null, .null),
    ])
    func valuesAreStoredAsCoreDataStoresThem(_ value: AttributeValue, _ stored: SQLiteValue) {
        #expect(SQLiteValueCodec.encode(value) == stored)
        let type = value.attributeType ?? .string
        #expect(SQLiteValueCodec.decode(stored, as: type) == value)
    }

    @Test func negativeZeroAndNaNKeepTheirBits() throws {
        for number in [-0.0, Double.nan, Double(bitPattern: 0x7FF8_0000_0000_1234)] {
            let stored = SQLiteValueCodec.encode(.double(number))
            guard case .blob(let bytes) = stored else {
                Issue.record("\(number) is stored as \(stored)")
                continue
            }
            #expect(bytes.count == 8)
            guard case .double(let back)? = SQLiteValueCodec.decode(stored, as: .double) else {
                Issue.record("\(number) does not read back")
                continue
            }
            #expect(back.bitPattern == number.bitPattern)
        }
        #expect(SQLiteValueCodec.encode(.double(.infinity)) == .real(.infinity))
    }

    @Test func decimalsADoubleCannotHoldAreKeptAsTheirDigits() {
        let digits = "3.1415926535897932384626433832795028841"
        let value = AttributeValue.decimal(Decimal(string: digits)!)
        let stored = SQLiteValueCodec.encode(value)
        #expect(stored == .blob(Array(Decimal(string: digits)!.description.utf8)))
        #expect(SQLiteValueCodec.decode(stored, as: .decimal) == value)
        #expect(SQLiteValueCodec.decode(SQLiteValueCodec.encode(.decimal(.nan)), as: .decimal) == .decimal(.nan))
    }

    @Test func valuesOfTheWrongKindForTheColumnAreRefused() {
        #expect(SQLiteValueCodec.decode(.text("x"), as: .integer64) == nil)
        #expect(SQLiteValueCodec.decode(.integer(70_000), as: .integer16) == nil)
        #expect(SQLiteValueCodec.decode(.blob([1, 2]), as: .uuid) == nil)
        #expect(SQLiteValueCodec.decode(.real(1.5), as: .string) == nil)
    }
}
