import Foundation
import Strata

/// Encodes attribute values as Core Data's XML store writes them, keeping every bit where
/// Core Data's own text would lose some (see `docs/XML.md`):
/// - numbers and dates use the shortest text that reads back as the same bits, including
///   `-0.0`, `nan`, `inf` and `-inf`, which `strtod` reads too;
/// - decimals use all their digits (up to 38 significant ones, with any exponent);
/// - binary and transformable data are base64 on one line;
/// - a string holding characters XML 1.0 forbids (NUL and most other control characters) is
///   written in base64 with `encoding="base64"`.
enum XMLAttributeCodec {
    /// Core Data's type name for each attribute type the XML store holds.
    static let typeNames: [AttributeType: String] = [
        .integer16: "int16", .integer32: "int32", .integer64: "int64", .decimal: "decimal", .double: "double",
        .float: "float", .string: "string", .boolean: "bool", .date: "date", .binary: "binary", .uuid: "uuid",
        .uri: "uri", .transformable: "transformable", .objectID: "objectid",
    ]

    /// The attribute type for each of Core Data's type names.
    static let typesByName = Dictionary(uniqueKeysWithValues: typeNames.map { ($1, $0) })

    /// `value` as element text; `declaredType` is the model's type for the attribute, if known
    /// (it tells transformable data from binary). `nil` for `null`, which is left out.
    static func encode(_ value: AttributeValue, declaredType: AttributeType?) -> XMLAttributeText? {
        switch value {
        case .null: nil
        case .objectID(let objectID): XMLAttributeText(typeName: "objectid", text: objectID.uriString)
        case .integer16(let number): XMLAttributeText(typeName: "int16", text: "\(number)")
        case .integer32(let number): XMLAttributeText(typeName: "int32", text: "\(number)")
        case .integer64(let number): XMLAttributeText(typeName: "int64", text: "\(number)")
        case .decimal(let number): XMLAttributeText(typeName: "decimal", text: decimalText(number))
        case .double(let number): XMLAttributeText(typeName: "double", text: "\(number)")
        case .float(let number): XMLAttributeText(typeName: "float", text: "\(number)")
        case .boolean(let flag): XMLAttributeText(typeName: "bool", text: flag ? "1" : "0")
        case .date(let date): XMLAttributeText(typeName: "date", text: "\(date.timeIntervalSinceReferenceDate)")
        case .uuid(let uuid): XMLAttributeText(typeName: "uuid", text: uuid.uuidString)
        case .uri(let url): XMLAttributeText(typeName: "uri", text: url.absoluteString)
        case .binary(let data):
            XMLAttributeText(
                typeName: declaredType == .transformable ? "transformable" : "binary", text: data.base64EncodedString())
        case .string(let text):
            XMLStoreFormat.canHold(text)
                ? XMLAttributeText(typeName: "string", text: text)
                : XMLAttributeText(typeName: "string", text: Data(text.utf8).base64EncodedString(), isBase64: true)
        }
    }

    /// The value `encoded` holds; `nil` when its type is unknown or its text does not read as
    /// one of that type.
    static func decode(_ encoded: XMLAttributeText) -> AttributeValue? {
        guard let type = typesByName[encoded.typeName] else { return nil }
        let text = encoded.text
        if encoded.isBase64 {
            guard type == .string, let data = base64Data(text) else { return nil }
            return String(data: data, encoding: .utf8).map(AttributeValue.string)
        }
        switch type {
        case .integer16: return Int16(text).map(AttributeValue.integer16)
        case .integer32: return Int32(text).map(AttributeValue.integer32)
        case .integer64: return Int64(text).map(AttributeValue.integer64)
        case .decimal: return decimal(text).map(AttributeValue.decimal)
        case .double: return Double(text).map(AttributeValue.double)
        case .float: return Float(text).map(AttributeValue.float)
        case .string: return .string(text)
        case .boolean: return text == "1" || text == "0" ? .boolean(text == "1") : nil
        case .date: return Double(text).map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .binary, .transformable: return base64Data(text).map(AttributeValue.binary)
        case .uuid: return UUID(uuidString: text).map(AttributeValue.uuid)
        case .uri: return URL(string: text).map(AttributeValue.uri)
        case .objectID: return ObjectID(uriString: text).map(AttributeValue.objectID)
        case .undefined, .composite: return nil
        }
    }

    /// Base64 text, which Core Data may break into lines, as bytes; `nil` when it is not base64.
    private static func base64Data(_ text: String) -> Data? {
        Data(base64Encoded: String(text.unicodeScalars.filter { !isXMLWhitespace($0) }))
    }

    /// A decimal's digits (its `description`, which reads back as the same decimal), or `NaN`.
    private static func decimalText(_ number: Decimal) -> String {
        number.isNaN ? "NaN" : number.description
    }

    /// The decimal written as `text`: `NaN`, or an optional sign, digits with an optional
    /// fraction, and an optional exponent, with nothing around them; `nil` for anything else,
    /// where Foundation's `Decimal(string:)` would read a prefix.
    private static func decimal(_ text: String) -> Decimal? {
        if text == "NaN" { return .nan }
        var scalars = Substring(text).unicodeScalars[...]
        func digits() -> Int {
            let count = scalars.prefix { ("0"..."9").contains($0) }.count
            scalars.removeFirst(count)
            return count
        }
        if scalars.first == "+" || scalars.first == "-" { scalars.removeFirst() }
        var mantissa = digits()
        if scalars.first == "." {
            scalars.removeFirst()
            mantissa += digits()
        }
        if mantissa > 0, scalars.first == "e" || scalars.first == "E" {
            scalars.removeFirst()
            if scalars.first == "+" || scalars.first == "-" { scalars.removeFirst() }
            guard digits() > 0 else { return nil }
        }
        guard mantissa > 0, scalars.isEmpty else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    private static func isXMLWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
    }
}
