import Foundation
import Strata

extension AttributeValue {
    /// Whether `self` and `other` are the same value of the same type, bit for bit: unlike
    /// `==`, this tells `0` from `-0`, NaN equals NaN, an `Int16` differs from an `Int64`,
    /// and strings compare by Unicode scalars (NFC and NFD differ).
    func isIdentical(to other: AttributeValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case (.integer16(let a), .integer16(let b)): a == b
        case (.integer32(let a), .integer32(let b)): a == b
        case (.integer64(let a), .integer64(let b)): a == b
        case (.decimal(let a), .decimal(let b)): a == b && a.description == b.description
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        case (.float(let a), .float(let b)): a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.boolean(let a), .boolean(let b)): a == b
        case (.date(let a), .date(let b)):
            a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
        case (.binary(let a), .binary(let b)): a == b
        case (.uuid(let a), .uuid(let b)): a == b
        case (.uri(let a), .uri(let b)): a.absoluteString.unicodeScalars.elementsEqual(b.absoluteString.unicodeScalars)
        case (.objectID(let a), .objectID(let b)): a == b
        default: false
        }
    }

    /// A short, exact description for failure messages: the type, and bit patterns where
    /// `description` would hide a difference.
    var exactDescription: String {
        switch self {
        case .double(let value): "double \(value) (bits 0x\(String(value.bitPattern, radix: 16)))"
        case .float(let value): "float \(value) (bits 0x\(String(value.bitPattern, radix: 16)))"
        case .date(let value):
            "date \(value.timeIntervalSinceReferenceDate) s since 2001 "
                + "(bits 0x\(String(value.timeIntervalSinceReferenceDate.bitPattern, radix: 16)))"
        case .string(let value) where value.utf8.count > 64:
            "string of \(value.unicodeScalars.count) scalars starting \(String(value.prefix(16)).debugDescription)"
        case .string(let value):
            "string \(value.debugDescription) (scalars "
                + value.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ") + ")"
        case .binary(let value) where value.count > 32: "binary of \(value.count) bytes"
        default: "\(attributeType.map { "\($0)" } ?? "null") \(self)"
        }
    }
}
