import Foundation
import Testing

@testable import Strata

@Suite struct AttributeValueConvertibleTests {
    private func roundTrips<T: AttributeValueConvertible & Equatable>(_ value: T, as expected: AttributeValue) {
        #expect(value.attributeValue == expected)
        #expect(T(attributeValue: value.attributeValue) == value)
        #expect(value.attributeValue.get(T.self) == value)
    }

    @Test func everyTypeRoundTripsLosslessly() {
        for v: Int16 in [.min, -1, 0, 1, .max] { roundTrips(v, as: .integer16(v)) }
        for v: Int32 in [.min, -1, 0, 1, .max] { roundTrips(v, as: .integer32(v)) }
        for v: Int64 in [.min, -1, 0, 1, .max] { roundTrips(v, as: .integer64(v)) }
        for v: Int in [.min, -1, 0, 1, .max] { roundTrips(v, as: .integer64(Int64(v))) }
        for text in ["0", "-1.5", "3.14159265358979323846264338327950288", "1e100"] {
            let v = Decimal(string: text)!
            roundTrips(v, as: .decimal(v))
        }
        for v: Double in [-.infinity, -1e300, -0.5, 0, 0.1, .ulpOfOne, .greatestFiniteMagnitude, .infinity] {
            roundTrips(v, as: .double(v))
        }
        for v: Float in [-.infinity, -0.5, 0, 0.1, .greatestFiniteMagnitude, .infinity] { roundTrips(v, as: .float(v)) }
        for v in ["", "abc", "e\u{301}", "\u{E9}", "👍🏽", "ß"] { roundTrips(v, as: .string(v)) }
        roundTrips(true, as: .boolean(true))
        roundTrips(false, as: .boolean(false))
        let date = Date(timeIntervalSinceReferenceDate: 123.456)
        roundTrips(date, as: .date(date))
        roundTrips(Data([0, 1, 255]), as: .binary(Data([0, 1, 255])))
        let uuid = UUID()
        roundTrips(uuid, as: .uuid(uuid))
        let url = URL(string: "https://a.example/path?q=1")!
        roundTrips(url, as: .uri(url))
        let id = ObjectID(storeIdentifier: "S", entityName: "Book", reference: .integer(9))
        roundTrips(id, as: .objectID(id))
        roundTrips(AttributeValue.string("x"), as: .string("x"))
    }

    @Test func nanRoundTrips() {
        #expect(Double(attributeValue: .double(.nan))?.isNaN == true)
        #expect(Float(attributeValue: .float(.nan))?.isNaN == true)
    }

    @Test func optionalsMapNilToNull() {
        let none: String? = nil
        #expect(none.attributeValue == .null)
        #expect(String?(attributeValue: .null) == .some(nil))
        #expect(String?(attributeValue: .string("a")) == .some("a"))
        #expect(String?(attributeValue: .integer16(1)) == nil)
        #expect(Int16?(attributeValue: .integer64(70000)) == nil)
        #expect(AttributeValue.null.get(Int?.self) == .some(nil))
        #expect(AttributeValue.null.get(Int.self) == nil)
    }

    @Test func integersReadAnyWholeNumberInRange() {
        #expect(Int16(attributeValue: .integer64(32767)) == 32767)
        #expect(Int16(attributeValue: .integer64(32768)) == nil)
        #expect(Int16(attributeValue: .integer32(-32769)) == nil)
        #expect(Int32(attributeValue: .integer64(Int64(Int32.max) + 1)) == nil)
        #expect(Int32(attributeValue: .integer16(-5)) == -5)
        #expect(Int64(attributeValue: .double(3)) == 3)
        #expect(Int64(attributeValue: .double(3.5)) == nil)
        #expect(Int64(attributeValue: .double(9_223_372_036_854_775_808.0)) == nil)
        #expect(Int64(attributeValue: .double(-9_223_372_036_854_775_808.0)) == .min)
        #expect(Int64(attributeValue: .double(.nan)) == nil)
        #expect(Int64(attributeValue: .double(.infinity)) == nil)
        #expect(Int64(attributeValue: .float(-2)) == -2)
        #expect(Int64(attributeValue: .decimal(Decimal(string: "12")!)) == 12)
        #expect(Int64(attributeValue: .decimal(Decimal(string: "12.5")!)) == nil)
        #expect(Int64(attributeValue: .decimal(Decimal(Int64.max) + 1)) == nil)
        #expect(Int64(attributeValue: .decimal(.nan)) == nil)
        #expect(Int(attributeValue: .integer16(7)) == 7)
        #expect(Int16(attributeValue: .boolean(true)) == nil)
        #expect(Int64(attributeValue: .string("1")) == nil)
        #expect(Int64(attributeValue: .null) == nil)
    }

    @Test func floatingPointReadsNumbersAndRejectsOutOfRange() {
        #expect(Double(attributeValue: .integer16(-3)) == -3)
        #expect(Double(attributeValue: .integer64(1 << 53)) == 9_007_199_254_740_992)
        #expect(Double(attributeValue: .float(0.5)) == 0.5)
        #expect(Double(attributeValue: .decimal(Decimal(string: "0.1")!)) == 0.1)
        #expect(Double(attributeValue: .decimal(Decimal(string: "1e30")!)) == 1e30)
        #expect(Double(attributeValue: .boolean(true)) == nil)
        #expect(Double(attributeValue: .string("1")) == nil)
        #expect(Float(attributeValue: .double(0.5)) == 0.5)
        #expect(Float(attributeValue: .integer32(-7)) == -7)
        #expect(Float(attributeValue: .double(1e300)) == nil)
        #expect(Float(attributeValue: .double(-1e300)) == nil)
        #expect(Float(attributeValue: .decimal(Decimal(string: "1e100")!)) == nil)
        #expect(Float(attributeValue: .double(.infinity)) == .infinity)
        #expect(Float(attributeValue: .date(Date())) == nil)
    }

    @Test func decimalReadsIntegersAndDecimalsOnly() {
        #expect(Decimal(attributeValue: .integer64(.max)) == Decimal(Int64.max))
        #expect(Decimal(attributeValue: .integer16(-2)) == -2)
        #expect(Decimal(attributeValue: .boolean(true)) == nil)
        #expect(Decimal(attributeValue: .double(0.5)) == nil)
        #expect(Decimal(attributeValue: .string("1")) == nil)
    }

    @Test func booleansReadZeroAndOne() {
        #expect(Bool(attributeValue: .integer16(1)) == true)
        #expect(Bool(attributeValue: .integer64(0)) == false)
        #expect(Bool(attributeValue: .integer32(2)) == nil)
        #expect(Bool(attributeValue: .integer64(-1)) == nil)
        #expect(Bool(attributeValue: .double(1)) == nil)
        #expect(Bool(attributeValue: .string("true")) == nil)
    }

    @Test func otherTypesReadOnlyTheirOwnCase() {
        #expect(String(attributeValue: .integer16(1)) == nil)
        #expect(Date(attributeValue: .double(0)) == nil)
        #expect(Data(attributeValue: .string("a")) == nil)
        #expect(UUID(attributeValue: .string(UUID().uuidString)) == nil)
        #expect(URL(attributeValue: .string("https://a.example")) == nil)
        let id = ObjectID(storeIdentifier: "S", entityName: "Book", reference: .integer(9))
        #expect(ObjectID(attributeValue: .uri(id.uriRepresentation)) == nil)
    }
}
