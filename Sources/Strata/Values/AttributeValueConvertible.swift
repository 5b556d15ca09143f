import Foundation

/// A Swift type that converts losslessly to and from an ``AttributeValue``.
///
/// Conformances cover every attribute type: `Int16`, `Int32`, `Int64`, `Int` (stored as
/// 64-bit), `Decimal`, `Double`, `Float`, `String`, `Bool`, `Date`, `Data`, `UUID`, `URL`,
/// ``ObjectID``, and `Optional` of any of them (`nil` ↔ ``AttributeValue/null``).
///
/// Reading converts between numeric widths when the number fits: integers read any whole
/// number in range (not booleans), `Decimal` reads integers and decimals, `Double` and
/// `Float` read any number but booleans (rounding to the nearest value, `nil` when a finite
/// number is too large), and `Bool` reads the integers 0 and 1.
public protocol AttributeValueConvertible: Sendable {
    /// The attribute type a property of this type stands for in a model made from classes
    /// (``ManagedObjectModel/init(types:configurations:versionIdentifiers:)``); for an
    /// `Optional`, its wrapped type's. ``AttributeType/undefined`` (the default) means none: a
    /// type of your own declares it, unless it is `RawRepresentable` with a convertible raw
    /// value, which takes its raw value's.
    static var attributeType: AttributeType { get }
    /// The value in its typed form.
    var attributeValue: AttributeValue { get }
    /// Reads a value of this type; `nil` when `value` is of another type or out of range.
    init?(attributeValue value: AttributeValue)
}

extension AttributeValue: AttributeValueConvertible {
    public static var attributeType: AttributeType { .undefined }
    public var attributeValue: AttributeValue { self }
    public init?(attributeValue value: AttributeValue) { self = value }
}

extension Int16: AttributeValueConvertible {
    public static var attributeType: AttributeType { .integer16 }
    public var attributeValue: AttributeValue { .integer16(self) }
    public init?(attributeValue value: AttributeValue) {
        guard let whole = value.exactIntegerValue, let v = Int16(exactly: whole) else { return nil }
        self = v
    }
}

extension Int32: AttributeValueConvertible {
    public static var attributeType: AttributeType { .integer32 }
    public var attributeValue: AttributeValue { .integer32(self) }
    public init?(attributeValue value: AttributeValue) {
        guard let whole = value.exactIntegerValue, let v = Int32(exactly: whole) else { return nil }
        self = v
    }
}

extension Int64: AttributeValueConvertible {
    public static var attributeType: AttributeType { .integer64 }
    public var attributeValue: AttributeValue { .integer64(self) }
    public init?(attributeValue value: AttributeValue) {
        guard let whole = value.exactIntegerValue else { return nil }
        self = whole
    }
}

extension Int: AttributeValueConvertible {
    public static var attributeType: AttributeType { .integer64 }
    public var attributeValue: AttributeValue { .integer64(Int64(self)) }
    public init?(attributeValue value: AttributeValue) {
        guard let whole = value.exactIntegerValue, let v = Int(exactly: whole) else { return nil }
        self = v
    }
}

extension Decimal: AttributeValueConvertible {
    public static var attributeType: AttributeType { .decimal }
    public var attributeValue: AttributeValue { .decimal(self) }
    public init?(attributeValue value: AttributeValue) {
        switch value {
        case .integer16(let v): self = Decimal(Int(v))
        case .integer32(let v): self = Decimal(Int(v))
        case .integer64(let v): self = Decimal(v)
        case .decimal(let v): self = v
        default: return nil
        }
    }
}

extension Double: AttributeValueConvertible {
    public static var attributeType: AttributeType { .double }
    public var attributeValue: AttributeValue { .double(self) }
    public init?(attributeValue value: AttributeValue) {
        switch value {
        case .double(let v): self = v
        case .float(let v): self = Double(v)
        case .integer16, .integer32, .integer64, .decimal:
            guard let number = value.numericValue else { return nil }
            self = number.doubleValue
        default: return nil
        }
    }
}

extension Float: AttributeValueConvertible {
    public static var attributeType: AttributeType { .float }
    public var attributeValue: AttributeValue { .float(self) }
    public init?(attributeValue value: AttributeValue) {
        switch value {
        case .float(let v): self = v
        case .double, .integer16, .integer32, .integer64, .decimal:
            guard let number = value.numericValue?.doubleValue else { return nil }
            let nearest = Float(number)
            if nearest.isInfinite && number.isFinite { return nil }
            self = nearest
        default: return nil
        }
    }
}

extension String: AttributeValueConvertible {
    public static var attributeType: AttributeType { .string }
    public var attributeValue: AttributeValue { .string(self) }
    public init?(attributeValue value: AttributeValue) {
        guard case .string(let v) = value else { return nil }
        self = v
    }
}

extension Bool: AttributeValueConvertible {
    public static var attributeType: AttributeType { .boolean }
    public var attributeValue: AttributeValue { .boolean(self) }
    public init?(attributeValue value: AttributeValue) {
        switch value {
        case .boolean(let v): self = v
        case .integer16, .integer32, .integer64:
            guard let whole = value.exactIntegerValue, whole == 0 || whole == 1 else { return nil }
            self = whole == 1
        default: return nil
        }
    }
}

extension Date: AttributeValueConvertible {
    public static var attributeType: AttributeType { .date }
    public var attributeValue: AttributeValue { .date(self) }
    public init?(attributeValue value: AttributeValue) {
        guard case .date(let v) = value else { return nil }
        self = v
    }
}

extension Data: AttributeValueConvertible {
    public static var attributeType: AttributeType { .binary }
    public var attributeValue: AttributeValue { .binary(self) }
    public init?(attributeValue value: AttributeValue) {
        guard case .binary(let v) = value else { return nil }
        self = v
    }
}

extension UUID: AttributeValueConvertible {
    public static var attributeType: AttributeType { .uuid }
    public var attributeValue: AttributeValue { .uuid(self) }
    public init?(attributeValue value: AttributeValue) {
        guard case .uuid(let v) = value else { return nil }
        self = v
    }
}

extension URL: AttributeValueConvertible {
    public static var attributeType: AttributeType { .uri }
    public var attributeValue: AttributeValue { .uri(self) }
    public init?(attributeValue value: AttributeValue) {
        guard case .uri(let v) = value else { return nil }
        self = v
    }
}

extension ObjectID: AttributeValueConvertible {
    public static var attributeType: AttributeType { .objectID }
    public var attributeValue: AttributeValue { .objectID(self) }
    public init?(attributeValue value: AttributeValue) {
        guard case .objectID(let v) = value else { return nil }
        self = v
    }
}

extension Optional: AttributeValueConvertible where Wrapped: AttributeValueConvertible {
    public static var attributeType: AttributeType { Wrapped.attributeType }
    public var attributeValue: AttributeValue { self?.attributeValue ?? .null }
    public init?(attributeValue value: AttributeValue) {
        if value.isNull {
            self = .none
        } else if let wrapped = Wrapped(attributeValue: value) {
            self = .some(wrapped)
        } else {
            return nil
        }
    }
}

extension AttributeValueConvertible {
    /// No attribute type: a type of your own declares its own.
    public static var attributeType: AttributeType { .undefined }
}

extension AttributeValueConvertible where Self: RawRepresentable, RawValue: AttributeValueConvertible {
    /// The raw value's attribute type.
    public static var attributeType: AttributeType { RawValue.attributeType }
}

extension AttributeValue {
    /// The value as a whole `Int64` when it is an integer, or a decimal or floating
    /// value with no fractional part that fits; `nil` otherwise (booleans included).
    var exactIntegerValue: Int64? {
        switch self {
        case .integer16, .integer32, .integer64, .decimal, .double, .float: numericValue?.exactInteger
        default: nil
        }
    }

    /// Reads the value as `T`; `nil` when it is of another type or out of range.
    public func get<T: AttributeValueConvertible>(_ type: T.Type = T.self) -> T? {
        T(attributeValue: self)
    }
}
