import Foundation
import Strata

extension ModelFileReader {
    /// The value written as `text` in the XML attribute `key`, read as a value of `type`.
    ///
    /// Integers, decimals and floating-point numbers use the POSIX number syntax; Boolean values
    /// are `YES` or `NO`; UUIDs and URIs use their usual text forms. Dates, binary data and
    /// transformable values have no text form in a model file.
    ///
    /// - Throws: `ModelError/Code/malformedFile` when `text` is not a valid value of `type`.
    func value(
        _ text: String, as type: AttributeType, from key: String, of element: SourceElement, in context: String
    ) throws(ModelError) -> AttributeValue {
        let value = AttributeValue(modelText: text, as: type)
        guard let value else {
            throw malformed(
                element, in: context, "has \(key)=\"\(text)\", which is not a valid \(type.modelFileName) value.")
        }
        return value
    }
}

extension AttributeValue {
    /// The value a model file writes as `text`, read as a value of `type`: integers, decimals
    /// and floating-point numbers in the POSIX number syntax, Booleans as `YES` or `NO`, UUIDs
    /// and URIs in their usual text forms; `nil` for text that is not one, and for dates,
    /// binary data and transformable values, which have no text form.
    init?(modelText text: String, as type: AttributeType) {
        let value: AttributeValue? =
            switch type {
            case .integer16: Int16(text).map(AttributeValue.integer16)
            case .integer32: Int32(text).map(AttributeValue.integer32)
            case .integer64: Int64(text).map(AttributeValue.integer64)
            case .decimal: AttributeValue.parseDecimal(text).map(AttributeValue.decimal)
            case .double: Double(text).map(AttributeValue.double)
            case .float: Float(text).map(AttributeValue.float)
            case .string: .string(text)
            case .boolean: text == "YES" ? .boolean(true) : text == "NO" ? .boolean(false) : nil
            case .uuid: UUID(uuidString: text).map(AttributeValue.uuid)
            case .uri: URL(string: text).map(AttributeValue.uri)
            case .undefined, .date, .binary, .transformable, .objectID, .composite: nil
            }
        guard let value else { return nil }
        self = value
    }
}
