import Foundation

/// One value of a property list, as ``BinaryPropertyList`` reads it.
///
/// Unlike Foundation's property list reader, it keeps the keyed archiver's object references
/// (``uid(_:)``), the null marker (``null``) and sets (``set(_:)``) apart from the other values,
/// so ``KeyedArchive`` can follow them on every platform.
package enum PropertyListValue: Sendable, Hashable {
    /// The null marker (`0x00`), which Apple's writers never produce but the format allows.
    case null
    /// `true` or `false`.
    case boolean(Bool)
    /// An integer stored in 1, 2, 4, 8 or 16 bytes; 1, 2 and 4-byte integers are unsigned,
    /// 8 and 16-byte ones signed.
    case integer(Int64)
    /// A floating-point number stored in 4 or 8 bytes.
    case real(Double)
    /// A date, stored as seconds since 1 January 2001, GMT.
    case date(Date)
    /// Bytes.
    case data(Data)
    /// A string stored as ASCII or as big-endian UTF-16.
    case string(String)
    /// A reference to another object of a keyed archive: its index in `$objects`.
    case uid(Int)
    /// An ordered list of values.
    case array([PropertyListValue])
    /// An unordered collection of values, in the order the file lists them.
    case set([PropertyListValue])
    /// A dictionary; a binary property list whose dictionary has a key that is not a string
    /// is refused.
    case dictionary([String: PropertyListValue])

    /// The string, for ``string(_:)``; nil for every other kind of value.
    package var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The integer, for ``integer(_:)``; nil for every other kind of value.
    package var integer: Int64? {
        if case .integer(let value) = self { return value }
        return nil
    }

    /// The number, for ``real(_:)`` and ``integer(_:)``; nil for every other kind of value.
    package var real: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    /// The flag, for ``boolean(_:)``; nil for every other kind of value.
    package var boolean: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// The bytes, for ``data(_:)``; nil for every other kind of value.
    package var data: Data? {
        if case .data(let value) = self { return value }
        return nil
    }

    /// The object index, for ``uid(_:)``; nil for every other kind of value.
    package var uid: Int? {
        if case .uid(let value) = self { return value }
        return nil
    }

    /// The elements, for ``array(_:)``; nil for every other kind of value, sets included.
    package var array: [PropertyListValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries, for ``dictionary(_:)``; nil for every other kind of value.
    package var dictionary: [String: PropertyListValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// A short name of the kind of value, for error messages: "a string", "an array", ….
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .boolean: "a boolean"
        case .integer: "an integer"
        case .real: "a real number"
        case .date: "a date"
        case .data: "data"
        case .string: "a string"
        case .uid: "an object reference"
        case .array: "an array"
        case .set: "a set"
        case .dictionary: "a dictionary"
        }
    }
}
