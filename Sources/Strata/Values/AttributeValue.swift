import Foundation

/// A typed value of an attribute, a to-one reference, or a predicate constant.
///
/// Every attribute type has its own case, so a value keeps its exact width and
/// representation through stores and back. `null` stands for a missing value.
///
/// ## Equality
/// Two values are equal when they are the same kind and the same value, with one
/// documented exception: **numbers** (the integer, decimal, double, float and boolean
/// cases) are equal when they denote the same number, whatever their width, so
/// `.integer16(3) == .double(3)` and `.boolean(true) == .integer64(1)`. Integers compare
/// exactly with integers, decimals and doubles; decimals exactly with decimals; a decimal
/// and a double through the shortest decimal that converts back to the double (so
/// `.decimal(0.1) == .double(0.1)`, and whole doubles exactly); a float as its exact `Double`
/// value (so `.float(0.1) != .double(0.1)`). Unlike IEEE arithmetic, NaN equals NaN here,
/// so values can be used as dictionary keys. Strings are equal when their Unicode scalars are equal (no
/// normalisation, as SQLite's `BINARY` collation). Hashing follows the same rules.
///
/// Ordering and string options (case- and diacritic-insensitive) are in
/// ``compare(_:options:)``.
public enum AttributeValue: Sendable {
    /// No value.
    case null
    /// A 16-bit integer.
    case integer16(Int16)
    /// A 32-bit integer.
    case integer32(Int32)
    /// A 64-bit integer.
    case integer64(Int64)
    /// A base-10 decimal.
    case decimal(Decimal)
    /// A 64-bit floating-point number.
    case double(Double)
    /// A 32-bit floating-point number.
    case float(Float)
    /// A string.
    case string(String)
    /// A Boolean.
    case boolean(Bool)
    /// A date.
    case date(Date)
    /// Raw bytes; also the stored form of transformable attributes.
    case binary(Data)
    /// A UUID.
    case uuid(UUID)
    /// A URL.
    case uri(URL)
    /// A reference to another object.
    case objectID(ObjectID)

    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The attribute type this value belongs to; `nil` for ``null``.
    public var attributeType: AttributeType? {
        switch self {
        case .null: nil
        case .integer16: .integer16
        case .integer32: .integer32
        case .integer64: .integer64
        case .decimal: .decimal
        case .double: .double
        case .float: .float
        case .string: .string
        case .boolean: .boolean
        case .date: .date
        case .binary: .binary
        case .uuid: .uuid
        case .uri: .uri
        case .objectID: .objectID
        }
    }
}
