import Foundation
import Strata

/// Turns attribute values into the values Core Data keeps in its columns and back
/// (COREDATA-FORMATS §C.4): dates as seconds since 2001-01-01, UUIDs as 16 bytes, booleans as
/// 0 and 1, URIs as their absolute strings.
///
/// Where Core Data's form would lose information, the column holds a blob instead, which Core
/// Data reads as a number of the same or nearly the same value (docs/SQLITE.md, "Values"):
/// - a decimal that a double cannot hold exactly: its decimal digits as text in a blob;
/// - a double, float or date that SQLite cannot keep (NaN, `-0.0`): its 8 IEEE 754 bytes,
///   big-endian.
enum SQLiteValueCodec {
    /// The column value for `value`.
    static func encode(_ value: AttributeValue) -> SQLiteValue {
        switch value {
        case .null: return .null
        case .integer16(let number): return .integer(Int64(number))
        case .integer32(let number): return .integer(Int64(number))
        case .integer64(let number): return .integer(number)
        case .boolean(let flag): return .integer(flag ? 1 : 0)
        case .double(let number): return encodeReal(number)
        case .float(let number): return encodeReal(Double(number))
        case .date(let date): return encodeReal(date.timeIntervalSinceReferenceDate)
        case .decimal(let number): return encodeDecimal(number)
        case .string(let text): return .text(text)
        case .uri(let url): return .text(url.absoluteString)
        case .binary(let data): return .blob(Array(data))
        case .uuid(let uuid): return .blob(withUnsafeBytes(of: uuid.uuid) { Array($0) })
        case .objectID(let objectID): return .text(objectID.uriString)
        }
    }

    /// The attribute value of `type` held in a column as `value`; `nil` when the column holds
    /// something an attribute of that type cannot be read from.
    static func decode(_ value: SQLiteValue, as type: AttributeType) -> AttributeValue? {
        if case .null = value { return .null }
        switch type {
        case .integer16: return integer(value).flatMap { Int16(exactly: $0) }.map(AttributeValue.integer16)
        case .integer32: return integer(value).flatMap { Int32(exactly: $0) }.map(AttributeValue.integer32)
        case .integer64: return integer(value).map(AttributeValue.integer64)
        case .boolean: return integer(value).map { .boolean($0 != 0) }
        case .double: return real(value).map(AttributeValue.double)
        case .float: return real(value).map { .float(Float($0)) }
        case .date: return real(value).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .decimal: return decimal(value).map(AttributeValue.decimal)
        case .string:
            guard case .text(let text) = value else { return nil }
            return .string(text)
        case .uri:
            guard case .text(let text) = value, let url = URL(string: text) else { return nil }
            return .uri(url)
        case .binary, .transformable:
            guard case .blob(let bytes) = value else { return nil }
            return .binary(Data(bytes))
        case .uuid:
            guard case .blob(let bytes) = value, bytes.count == 16 else { return nil }
            return .uuid(
                UUID(
                    uuid: (
                        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                    )))
        case .objectID:
            guard case .text(let text) = value, let objectID = ObjectID(uriString: text) else { return nil }
            return .objectID(objectID)
        case .undefined, .composite:
            return nil
        }
    }

    /// A real SQLite keeps exactly as it is, or its IEEE 754 bytes.
    private static func encodeReal(_ number: Double) -> SQLiteValue {
        if number.isNaN || (number == 0 && number.sign == .minus) {
            return .blob(withUnsafeBytes(of: number.bitPattern.bigEndian) { Array($0) })
        }
        return .real(number)
    }

    /// A decimal as a real when the real reads back as the same decimal, else as its digits.
    private static func encodeDecimal(_ number: Decimal) -> SQLiteValue {
        if number.isNaN { return .blob(Array("NaN".utf8)) }
        if let whole = Int64(exactly: NSDecimalNumber(decimal: number).int64Value),
            Decimal(whole) == number
        {
            return .integer(whole)
        }
        let text = number.description
        if let real = Double(text), real.isFinite, Decimal(string: "\(real)") == number { return .real(real) }
        return .blob(Array(text.utf8))
    }

    private static func integer(_ value: SQLiteValue) -> Int64? {
        switch value {
        case .integer(let number): return number
        case .real(let number): return Int64(exactly: number)
        default: return nil
        }
    }

    private static func real(_ value: SQLiteValue) -> Double? {
        switch value {
        case .integer(let number): return Double(number)
        case .real(let number): return number
        case .blob(let bytes) where bytes.count == 8:
            return Double(bitPattern: bytes.reduce(0) { $0 << 8 | UInt64($1) })
        default: return nil
        }
    }

    private static func decimal(_ value: SQLiteValue) -> Decimal? {
        switch value {
        case .integer(let number): return Decimal(number)
        case .real(let number): return Decimal(string: "\(number)")
        case .text(let text): return Decimal(string: text)
        case .blob(let bytes):
            let text = String(decoding: bytes, as: UTF8.self)
            return text == "NaN" ? .nan : Decimal(string: text)
        default: return nil
        }
    }
}
