import Foundation
import Strata

/// Turns attribute values into the values the store's columns hold and back, exactly: integers
/// in integer columns of their width, doubles and floats in IEEE columns (NaN, infinities and
/// `-0.0` included), decimals in `numeric`, dates as seconds since 2001-01-01 in a double,
/// strings, URIs and object IDs as UTF-8 in `bytea`, UUIDs in `uuid`.
enum PostgresValueCodec {
    /// The column value for `value`.
    static func encode(_ value: AttributeValue) -> PostgresValue {
        switch value {
        case .null: .null
        case .integer16(let number): .smallint(number)
        case .integer32(let number): .integer(number)
        case .integer64(let number): .bigint(number)
        case .boolean(let flag): .boolean(flag)
        case .double(let number): .double(number)
        case .float(let number): .real(number)
        case .date(let date): .double(date.timeIntervalSinceReferenceDate)
        case .decimal(let number): .numeric(number.isNaN ? "NaN" : number.description)
        case .string(let text): .bytes(Array(text.utf8))
        case .uri(let url): .bytes(Array(url.absoluteString.utf8))
        case .binary(let data): .bytes(Array(data))
        case .uuid(let uuid): .uuid(uuid)
        case .objectID(let objectID): .bytes(Array(objectID.uriString.utf8))
        }
    }

    /// The attribute value of `type` that the column value `value` holds; `nil` when the column
    /// holds something an attribute of that type cannot be read from.
    static func decode(_ value: PostgresValue, as type: AttributeType) -> AttributeValue? {
        if case .null = value { return .null }
        switch (type, value) {
        case (.integer16, .smallint(let n)): return .integer16(n)
        case (.integer32, .integer(let n)): return .integer32(n)
        case (.integer64, .bigint(let n)): return .integer64(n)
        case (.boolean, .boolean(let flag)): return .boolean(flag)
        case (.double, .double(let n)): return .double(n)
        case (.float, .real(let n)): return .float(n)
        case (.date, .double(let n)): return .date(Date(timeIntervalSinceReferenceDate: n))
        case (.decimal, .text(let text)):
            return text == "NaN" ? .decimal(.nan) : Decimal(string: text).map { .decimal($0) }
        case (.string, .bytes(let bytes)):
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            return .string(text)
        case (.uri, .bytes(let bytes)):
            return URL(string: String(decoding: bytes, as: UTF8.self)).map { .uri($0) }
        case (.objectID, .bytes(let bytes)):
            return ObjectID(uriString: String(decoding: bytes, as: UTF8.self)).map { .objectID($0) }
        case (.binary, .bytes(let bytes)), (.transformable, .bytes(let bytes)): return .binary(Data(bytes))
        case (.uuid, .uuid(let uuid)): return .uuid(uuid)
        default: return nil
        }
    }
}
