import Foundation
import Strata

@testable import StrataXcodeModel

/// Binary property lists written byte by byte, for the markers and the damage no fixture has.
///
/// Each object is given as its encoded bytes; ``file(_:top:offsetSize:referenceSize:)`` adds the
/// header, the offset table and the trailer.
enum BinaryPropertyListBytes {
    /// A binary property list of `objects`, numbered in order, whose top object is `top`.
    static func file(
        _ objects: [[UInt8]], top: UInt64 = 0, offsetSize: UInt8 = 1, referenceSize: UInt8 = 1
    ) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let tableStart = bytes.count
        for offset in offsets {
            bytes += bigEndian(UInt64(offset), size: Int(offsetSize))
        }
        bytes += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize]
        bytes += bigEndian(UInt64(objects.count), size: 8)
        bytes += bigEndian(top, size: 8)
        bytes += bigEndian(UInt64(tableStart), size: 8)
        return bytes
    }

    /// The low `size` bytes of `value`, most significant first.
    static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
        (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - $0))) }
    }

    /// An integer of `size` bytes (1, 2, 4, 8 or 16); 16-byte integers are sign-filled.
    static func integer(_ value: Int64, size: Int) -> [UInt8] {
        let bits = UInt64(bitPattern: value)
        guard size != 16 else {
            let fill: UInt64 = value < 0 ? .max : 0
            var bytes: [UInt8] = [0x14]
            bytes += bigEndian(fill, size: 8)
            bytes += bigEndian(bits, size: 8)
            return bytes
        }
        let exponent = UInt8(size.trailingZeroBitCount)
        var bytes: [UInt8] = [0x10 | exponent]
        bytes += bigEndian(bits, size: size)
        return bytes
    }

    /// An 8-byte real number.
    static func real(_ value: Double) -> [UInt8] {
        [0x23] + bigEndian(value.bitPattern, size: 8)
    }

    /// A 4-byte real number.
    static func float(_ value: Float) -> [UInt8] {
        [0x22] + bigEndian(UInt64(value.bitPattern), size: 4)
    }

    /// A date, `seconds` after 1 January 2001.
    static func date(_ seconds: Double) -> [UInt8] {
        [0x33] + bigEndian(seconds.bitPattern, size: 8)
    }

    /// The marker `kind` (high nibble) with the count `count`, extended when 15 or more.
    static func header(_ kind: UInt8, count: Int) -> [UInt8] {
        guard count >= 15 else { return [kind << 4 | UInt8(count)] }
        let size = count < 256 ? 1 : 2
        let countMarker: UInt8 = size == 1 ? 0x10 : 0x11
        var bytes: [UInt8] = [kind << 4 | 0x0F, countMarker]
        bytes += bigEndian(UInt64(count), size: size)
        return bytes
    }

    /// An ASCII string.
    static func ascii(_ text: String) -> [UInt8] {
        header(0x5, count: text.utf8.count) + Array(text.utf8)
    }

    /// A big-endian UTF-16 string.
    static func utf16(_ text: String) -> [UInt8] {
        let units = Array(text.utf16)
        return header(0x6, count: units.count) + units.flatMap { bigEndian(UInt64($0), size: 2) }
    }

    /// Data.
    static func data(_ bytes: [UInt8]) -> [UInt8] {
        header(0x4, count: bytes.count) + bytes
    }

    /// A keyed archiver UID of `size` bytes.
    static func uid(_ value: UInt64, size: Int = 1) -> [UInt8] {
        [0x80 | UInt8(size - 1)] + bigEndian(value, size: size)
    }

    /// An array of the objects numbered `references`.
    static func array(_ references: [Int], referenceSize: Int = 1) -> [UInt8] {
        header(0xA, count: references.count) + references.flatMap { bigEndian(UInt64($0), size: referenceSize) }
    }

    /// A set of the objects numbered `references`.
    static func set(_ references: [Int]) -> [UInt8] {
        header(0xC, count: references.count) + references.flatMap { bigEndian(UInt64($0), size: 1) }
    }

    /// A dictionary of the key objects `keys` and the value objects `values`.
    static func dictionary(keys: [Int], values: [Int]) -> [UInt8] {
        header(0xD, count: keys.count) + (keys + values).map { UInt8($0) }
    }

    /// `value` written as a binary property list: every value is an object of its own (nothing
    /// is shared), integers take 8 bytes, references 2 bytes and offsets 4 bytes.
    static func encode(_ value: PropertyListValue) -> [UInt8] {
        var objects: [[UInt8]] = []
        _ = append(value, to: &objects)
        return file(objects, offsetSize: 4, referenceSize: 2)
    }

    /// Appends `value` and everything in it to `objects`; returns the number of `value`.
    private static func append(_ value: PropertyListValue, to objects: inout [[UInt8]]) -> Int {
        let number = objects.count
        objects.append([])
        var encoded: [UInt8]
        switch value {
        case .null:
            encoded = [0x00]
        case .boolean(let flag):
            encoded = flag ? [0x09] : [0x08]
        case .integer(let integer):
            encoded = Self.integer(integer, size: 8)
        case .real(let real):
            encoded = Self.real(real)
        case .date(let date):
            encoded = Self.date(date.timeIntervalSinceReferenceDate)
        case .data(let data):
            encoded = Self.data(Array(data))
        case .string(let string):
            encoded = string.utf8.allSatisfy { $0 < 0x80 } ? ascii(string) : utf16(string)
        case .uid(let index):
            encoded = uid(UInt64(index), size: 2)
        case .array(let elements), .set(let elements):
            var references: [Int] = []
            for element in elements {
                references.append(append(element, to: &objects))
            }
            if case .set = value {
                encoded = header(0xC, count: references.count)
            } else {
                encoded = header(0xA, count: references.count)
            }
            for reference in references {
                encoded += bigEndian(UInt64(reference), size: 2)
            }
        case .dictionary(let entries):
            var keys: [Int] = []
            var values: [Int] = []
            for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
                keys.append(append(.string(key), to: &objects))
                values.append(append(entry, to: &objects))
            }
            encoded = header(0xD, count: keys.count)
            for reference in keys + values {
                encoded += bigEndian(UInt64(reference), size: 2)
            }
        }
        objects[number] = encoded
        return number
    }
}
