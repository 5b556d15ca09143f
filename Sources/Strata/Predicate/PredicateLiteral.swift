import Foundation

/// How constants are written in predicate format strings, in both directions.
///
/// Strings are written in double quotes; `nil`, `YES`/`NO`, integers (``AttributeValue/integer64``)
/// and finite doubles (``AttributeValue/double``, always with a `.` or an exponent) are plain
/// literals. Every other kind is written `CAST(literal, "Type")`, the form Core Data uses for
/// dates; the table is in ``FetchExpression/description``. Floats and decimals are written as
/// strings so that they read back exactly. When parsing, `CAST` also accepts numbers for the
/// numeric types and dates, strings of digits for the integer types, and `"Date"` as another
/// name for `"NSDate"`.
enum PredicateLiteral {
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
        case .decimal(let v): cast(quoted("\(v)"), "Decimal")
        case .double(let v): v.isFinite ? "\(v)" : cast(quoted("\(v)"), "Double")
        case .float(let v): cast(quoted("\(v)"), "Float")
        case .string(let v): quoted(v)
        case .boolean(let v): v ? "YES" : "NO"
        case .date(let v): date(v.timeIntervalSinceReferenceDate)
        case .binary(let v): cast(quoted(v.map(hexByte).joined()), "Data")
        case .uuid(let v): cast(quoted(v.uuidString), "UUID")
        case .uri(let v): cast(quoted(v.absoluteString), "URL")
        case .objectID(let v): cast(quoted(objectIDString(v)), "ObjectID")
        }
    }

    /// `string` in double quotes, with `\`, `"` and control characters escaped.
    static func quoted(_ string: String) -> String {
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
        case "ObjectID": string(value).flatMap(objectID).map(AttributeValue.objectID)
        default: nil
        }
    }

    private static func cast(_ literal: String, _ typeName: String) -> String {
        "CAST(\(literal), \"\(typeName)\")"
    }

    private static func date(_ interval: TimeInterval) -> String {
        cast(interval.isFinite ? "\(interval)" : quoted("\(interval)"), "NSDate")
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16)
        return byte < 16 ? "0" + digits : digits
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
            guard let text = string(value), text.wholeMatch(of: /[+-]?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?/) != nil,
                let decimal = Decimal(string: text), !decimal.isNaN
            else { return nil }
            return decimal
        }
    }

    private static func bytes(_ hex: String) -> Data? {
        let digits = Array(hex.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        var data = Data(capacity: digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            data.append(high << 4 | low)
        }
        return data
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The URI form of an object ID: `x-coredata://<store>/<Entity>/<t|p|s><reference>`, with
    /// every part percent-encoded so that any store identifier, entity name or key reads back.
    private static func objectIDString(_ id: ObjectID) -> String {
        let tail: String
        switch id.reference {
        case .temporary(let uuid): tail = "t" + uuid.uuidString
        case .integer(let number): tail = "p\(number)"
        case .string(let key): tail = "s" + percentEncoded(key)
        }
        return "x-coredata://\(percentEncoded(id.storeIdentifier ?? ""))/\(percentEncoded(id.entityName))/\(tail)"
    }

    /// Reads an object ID written by ``objectIDString(_:)``; `nil` when `string` is not one.
    private static func objectID(_ string: String) -> ObjectID? {
        let scheme = "x-coredata://"
        guard string.hasPrefix(scheme) else { return nil }
        let parts = string.dropFirst(scheme.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, let store = percentDecoded(parts[0]), let entity = percentDecoded(parts[1]),
            let marker = parts[2].first
        else { return nil }
        let body = parts[2].dropFirst()
        let reference: ObjectID.Reference
        switch marker {
        case "t":
            guard let uuid = UUID(uuidString: String(body)) else { return nil }
            reference = .temporary(uuid)
        case "p":
            guard let number = Int64(body) else { return nil }
            reference = .integer(number)
        case "s":
            guard let key = percentDecoded(body) else { return nil }
            reference = .string(key)
        default:
            return nil
        }
        return ObjectID(storeIdentifier: store.isEmpty ? nil : store, entityName: entity, reference: reference)
    }

    /// `text` with every byte but ASCII letters, digits and `-._~` written as `%XX`.
    private static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + hexByte(byte).uppercased()
            }
        }
        return result
    }

    /// `text` with `%XX` sequences decoded; `nil` when one is malformed or the bytes are not UTF-8.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
