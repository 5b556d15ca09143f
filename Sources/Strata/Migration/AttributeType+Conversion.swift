import Foundation

extension AttributeType {
    /// Whether a migration can convert values of `source` to this type: any type to itself,
    /// numbers and Booleans to one another, numbers, UUIDs and URLs to strings, and binary data
    /// to and from transformable values (both are kept as bytes).
    func canConvert(from source: AttributeType) -> Bool {
        if source == self { return true }
        switch (source.conversionFamily, conversionFamily) {
        case (.number, .number), (.bytes, .bytes): return true
        case (.number, .text), (.identifier, .text): return source != .boolean
        default: return false
        }
    }

    private enum ConversionFamily {
        case number, text, identifier, bytes, other
    }

    private var conversionFamily: ConversionFamily {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .boolean: .number
        case .string: .text
        case .uuid, .uri: .identifier
        case .binary, .transformable: .bytes
        case .undefined, .date, .objectID, .composite: .other
        }
    }
}

extension AttributeValue {
    /// The value as one of `type`, in that type's own case, for a migration; `nil` when it does
    /// not fit: a number that `type` cannot hold exactly (see ``AttributeType/coerce(_:)``), a
    /// number other than 0 or 1 for a Boolean, a type ``AttributeType/canConvert(from:)`` does
    /// not allow. A Boolean becomes 0 or 1; `null` stays `null`.
    package func converted(to type: AttributeType) -> AttributeValue? {
        if let exact = type.coerce(self) { return exact }
        switch (self, type) {
        case (.boolean(let value), _) where type.isNumeric: return type.coerce(.integer64(value ? 1 : 0))
        case (.integer16(let value), .string): return .string(String(value))
        case (.integer32(let value), .string): return .string(String(value))
        case (.integer64(let value), .string): return .string(String(value))
        case (.decimal(let value), .string): return .string(value.description)
        case (.double(let value), .string): return .string(String(value))
        case (.float(let value), .string): return .string(String(value))
        case (.uuid(let value), .string): return .string(value.uuidString)
        case (.uri(let value), .string): return .string(value.absoluteString)
        default: return nil
        }
    }
}
