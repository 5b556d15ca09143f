import Foundation

/// The type of an attribute's value, as Core Data names and numbers them.
///
/// The raw value is Core Data's `NSAttributeType` code, which also feeds the entity
/// version hash, so hashes computed by Strata equal Apple's for the same model.
public enum AttributeType: UInt32, Sendable, Hashable, CaseIterable, Codable {
    /// A transient attribute with no declared type.
    case undefined = 0
    /// A 16-bit signed integer.
    case integer16 = 100
    /// A 32-bit signed integer.
    case integer32 = 200
    /// A 64-bit signed integer.
    case integer64 = 300
    /// A base-10 decimal number.
    case decimal = 400
    /// A 64-bit floating-point number.
    case double = 500
    /// A 32-bit floating-point number.
    case float = 600
    /// A Unicode string.
    case string = 700
    /// A Boolean.
    case boolean = 800
    /// A point in time.
    case date = 900
    /// Raw bytes.
    case binary = 1000
    /// A UUID.
    case uuid = 1100
    /// A URL.
    case uri = 1200
    /// A value turned into data by a named value transformer.
    case transformable = 1800
    /// An object identifier.
    case objectID = 2000
    /// A named group of attributes (its ``AttributeDescription/elements``), stored as one
    /// attribute per element and read by key path (`address.city`).
    case composite = 2100

    /// The name Xcode's model editor writes in `attributeType` (for example `"Integer 16"`).
    public var modelFileName: String {
        switch self {
        case .undefined: "Undefined"
        case .integer16: "Integer 16"
        case .integer32: "Integer 32"
        case .integer64: "Integer 64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Boolean"
        case .date: "Date"
        case .binary: "Binary"
        case .uuid: "UUID"
        case .uri: "URI"
        case .transformable: "Transformable"
        case .objectID: "ObjectID"
        case .composite: "Composite"
        }
    }

    /// The type whose ``modelFileName`` is `name`, or `nil` when there is none.
    public init?(modelFileName name: String) {
        guard let type = Self.allCases.first(where: { $0.modelFileName == name }) else { return nil }
        self = type
    }

    /// Whether values of this type are numbers (integers, decimal, double, float).
    public var isNumeric: Bool {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: true
        default: false
        }
    }
}

extension AttributeType {
    /// `value` in this type's own case (`.integer64(4)` becomes `.integer16(4)` for an
    /// Integer 16 attribute); `nil` when it does not fit without loss.
    ///
    /// The one rounding allowed: a Float attribute takes the nearest `Float` of a finite
    /// number in its range (so `0.1` can be a Float default). Every other conversion must keep
    /// the number exactly: an integer above 2⁵³ that a Double cannot hold is refused.
    public func coerce(_ value: AttributeValue) -> AttributeValue? {
        switch self {
        case _ where value.isNull: .null
        case .integer16: value.attributeType == .boolean ? nil : Int16(attributeValue: value).map { .integer16($0) }
        case .integer32: value.attributeType == .boolean ? nil : Int32(attributeValue: value).map { .integer32($0) }
        case .integer64: value.attributeType == .boolean ? nil : Int64(attributeValue: value).map { .integer64($0) }
        case .decimal: Decimal(attributeValue: value).map { .decimal($0) }
        case .double:
            value.attributeType == .boolean
                ? nil : Double(attributeValue: value).map { .double($0) }.flatMap { $0 == value ? $0 : nil }
        case .float: value.attributeType == .boolean ? nil : Float(attributeValue: value).map { .float($0) }
        case .boolean: Bool(attributeValue: value).map { .boolean($0) }
        case .undefined: value
        case .string, .date, .binary, .uuid, .uri, .objectID: value.attributeType == self ? value : nil
        case .transformable: value.attributeType == .binary ? value : nil
        case .composite: nil
        }
    }

    /// Whether `value` can be stored in an attribute of this type without loss.
    public func accepts(_ value: AttributeValue) -> Bool {
        coerce(value) != nil
    }
}
