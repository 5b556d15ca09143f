import Foundation

/// How constants are written in predicate format strings, in both directions.
///
/// Strings are written in double quotes; `nil`, `YES`/`NO`, integers (``AttributeValue/integer64(_:)``)
/// and finite doubles (``AttributeValue/double(_:)``, always with a `.` or an exponent) are plain
/// literals. Every other kind is written `CAST(literal, "Type")`, the form Core Data uses for
/// dates; the table is in ``FetchExpression/description``. Floats and decimals are written as
/// strings so that they read back exactly. When parsing, `CAST` also accepts numbers for the
/// numeric types and dates, strings of digits for the integer types, and `"Date"` as another
/// name for `"NSDate"`.
package enum PredicateLiteral {
    /// The type names `CAST` accepts.
    static let castTypeNames = [
        "Int16", "Int32", "Int64", "Decimal", "Double", "Float", "NSDate", "Date", "Data", "UUID", "URL", "ObjectID",
    ]

    /// The literal for `value` in format-string syntax.
    static func format(_ value: AttributeValue) -> String {
        switch value {
        case .null: "nil"
        case .integer64(let v): "\(v)"
        case .integer16(let v): cast("\(v)", "Int16")
        case .integer32(let v): cast("\(v)", "Int32")
        case .decimal(let v): cast(quoted(v.isNaN ? "nan" : "\(v)"), "Decimal")
        case .double(let v): v.isFinite ? "\(v)" : cast(quoted("\(v)"), "Double")
        case .float(let v): cast(quoted("\(v)"), "Float")
        case .string(let v): quoted(v)
        case .boolean(let v): v ? "YES" : "NO"
        case .date(let v): date(v.timeIntervalSinceReferenceDate)
        case .binary(let v): cast(quoted(v.map(Hex.digits).joined()), "Data")
        case .uuid(let v): cast(quoted(v.uuidString), "UUID")
        case .uri(let v): cast(quoted(v.absoluteString), "URL")
        case .objectID(let v): cast(quoted(v.uriString), "ObjectID")
        }
    }

    /// `string` in double quotes, with `\`, `"` and control characters escaped: also a JSON
    /// string.
    package static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) {
                    let digits = String(scalar.value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// `value` converted to the type named `typeName` (one of ``castTypeNames``); `nil` when
    /// it does not convert.
    static func cast(_ value: AttributeValue, to typeName: String) -> AttributeValue? {
        switch typeName {
        case "Int16": integer(value).flatMap { Int16(exactly: $0) }.map(AttributeValue.integer16)
        case "Int32": integer(value).flatMap { Int32(exactly: $0) }.map(AttributeValue.integer32)
        case "Int64": integer(value).map(AttributeValue.integer64)
        case "Double": double(value).map(AttributeValue.double)
        case "Float": float(value).map(AttributeValue.float)
        case "Decimal": decimal(value).map(AttributeValue.decimal)
        case "NSDate", "Date": double(value).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case "Data": string(value).flatMap(bytes).map(AttributeValue.binary)
        case "UUID": string(value).flatMap(UUID.init(uuidString:)).map(AttributeValue.uuid)
        case "URL": string(value).flatMap { URL(string: $0) }.map(AttributeValue.uri)
        case "ObjectID": string(value).flatMap(ObjectID.init(uriString:)).map(AttributeValue.objectID)
        default: nil
        }
    }

    private static func cast(_ literal: String, _ typeName: String) -> String {
        "CAST(\(literal), \"\(typeName)\")"
    }

    private static func date(_ interval: TimeInterval) -> String {
        cast(interval.isFinite ? "\(interval)" : quoted("\(interval)"), "NSDate")
    }

    private static func string(_ value: AttributeValue) -> String? {
        guard case .string(let string) = value else { return nil }
        return string
    }

    /// A number that is not a Boolean.
    private static func number(_ value: AttributeValue) -> NumericValue? {
        value.attributeType == .boolean ? nil : value.numericValue
    }

    private static func integer(_ value: AttributeValue) -> Int64? {
        if let text = string(value) { return Int64(text) }
        return number(value)?.exactInteger
    }

    private static func double(_ value: AttributeValue) -> Double? {
        if let text = string(value) { return Double(text) }
        return number(value)?.doubleValue
    }

    private static func float(_ value: AttributeValue) -> Float? {
        switch value {
        case .string(let text): Float(text)
        case .float(let v): v
        default: double(value).map { Float($0) }
        }
    }

    private static func decimal(_ value: AttributeValue) -> Decimal? {
        switch number(value) {
        case .integer(let v): return Decimal(v)
        case .decimal(let v): return v
        case .floating(let v): return v.isFinite ? decimal(.string("\(v)")) : nil
        case nil:
            guard let text = string(value) else { return nil }
            return text == "nan" ? Decimal.nan : AttributeValue.parseDecimal(text)
        }
    }

    private static func bytes(_ hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var data = Data(capacity: digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = Hex.value(digits[index]), let low = Hex.value(digits[index + 1]) else { return nil }
            data.append(high << 4 | low)
        }
        return data
    }
}
