import Foundation

/// Writes Apple binary property lists (`bplist00`), the layout ``BinaryPropertyList`` reads:
/// every value is one object (nothing is shared), strings are ASCII when they can be and
/// big-endian UTF-16 otherwise, and the offset table and references use the fewest bytes that
/// hold them.
package enum BinaryPropertyListWriter {
    /// The bytes of the property list whose root is `root`.
    package static func data(_ root: PropertyListValue) -> Data {
        var objects: [PropertyListValue] = []
        var references: [[Int]] = []
        flatten(root, into: &objects, references: &references)
        let referenceSize = byteCount(for: UInt64(objects.count))
        var bytes = Data("bplist00".utf8)
        var offsets: [UInt64] = []
        offsets.reserveCapacity(objects.count)
        for (index, object) in objects.enumerated() {
            offsets.append(UInt64(bytes.count))
            write(object, references: references[index], referenceSize: referenceSize, to: &bytes)
        }
        let tableOffset = UInt64(bytes.count)
        let offsetSize = byteCount(for: tableOffset)
        for offset in offsets { appendBigEndian(offset, size: offsetSize, to: &bytes) }
        bytes.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)])
        appendBigEndian(UInt64(objects.count), size: 8, to: &bytes)
        appendBigEndian(0, size: 8, to: &bytes)
        appendBigEndian(tableOffset, size: 8, to: &bytes)
        return bytes
    }

    /// Numbers `value` and everything inside it depth first, recording each collection's
    /// element numbers (a dictionary's keys, sorted, then its values).
    private static func flatten(
        _ value: PropertyListValue, into objects: inout [PropertyListValue], references: inout [[Int]]
    ) {
        let index = objects.count
        objects.append(value)
        references.append([])
        var children: [PropertyListValue] = []
        switch value {
        case .array(let elements), .set(let elements): children = elements
        case .dictionary(let entries):
            let keys = entries.keys.sorted()
            children = keys.map { .string($0) } + keys.map { entries[$0]! }
        default: return
        }
        var numbers: [Int] = []
        for child in children {
            numbers.append(objects.count)
            flatten(child, into: &objects, references: &references)
        }
        references[index] = numbers
    }

    private static func write(_ value: PropertyListValue, references: [Int], referenceSize: Int, to bytes: inout Data) {
        switch value {
        case .null: bytes.append(0x00)
        case .boolean(let flag): bytes.append(flag ? 0x09 : 0x08)
        case .integer(let number): writeInteger(number, to: &bytes)
        case .real(let number):
            bytes.append(0x23)
            appendBigEndian(number.bitPattern, size: 8, to: &bytes)
        case .date(let date):
            bytes.append(0x33)
            appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8, to: &bytes)
        case .data(let data):
            writeMarker(0x40, count: data.count, to: &bytes)
            bytes.append(data)
        case .string(let string):
            if string.unicodeScalars.allSatisfy(\.isASCII) {
                writeMarker(0x50, count: string.utf8.count, to: &bytes)
                bytes.append(contentsOf: string.utf8)
            } else {
                let units = Array(string.utf16)
                writeMarker(0x60, count: units.count, to: &bytes)
                for unit in units { appendBigEndian(UInt64(unit), size: 2, to: &bytes) }
            }
        case .uid(let number):
            let size = byteCount(for: UInt64(number))
            bytes.append(0x80 | UInt8(size - 1))
            appendBigEndian(UInt64(number), size: size, to: &bytes)
        case .array(let elements), .set(let elements):
            writeMarker(value.isSet ? 0xC0 : 0xA0, count: elements.count, to: &bytes)
            for reference in references { appendBigEndian(UInt64(reference), size: referenceSize, to: &bytes) }
        case .dictionary(let entries):
            writeMarker(0xD0, count: entries.count, to: &bytes)
            for reference in references { appendBigEndian(UInt64(reference), size: referenceSize, to: &bytes) }
        }
    }

    /// An integer in 1, 2 or 4 bytes (unsigned) when it is not negative and fits, else in 8.
    private static func writeInteger(_ number: Int64, to bytes: inout Data) {
        let size = number < 0 ? 8 : byteCount(for: UInt64(number))
        let exponent: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size <= 4 ? 2 : 3
        bytes.append(0x10 | exponent)
        appendBigEndian(UInt64(bitPattern: number), size: 1 << Int(exponent), to: &bytes)
    }

    /// A marker with its count in the low nibble, or `0xF` and the count as an integer after it.
    private static func writeMarker(_ marker: UInt8, count: Int, to bytes: inout Data) {
        if count < 15 {
            bytes.append(marker | UInt8(count))
        } else {
            bytes.append(marker | 0x0F)
            writeInteger(Int64(count), to: &bytes)
        }
    }

    /// The fewest of 1, 2, 4 or 8 bytes that hold `value`.
    private static func byteCount(for value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    private static func appendBigEndian(_ value: UInt64, size: Int, to bytes: inout Data) {
        for shift in stride(from: (size - 1) * 8, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}

extension PropertyListValue {
    fileprivate var isSet: Bool {
        if case .set = self { return true }
        return false
    }
}
