import Foundation

/// A reader of binary property lists (`bplist00`) for the values store metadata holds:
/// dictionaries with string keys, arrays, strings, data, integers, reals, booleans and dates.
///
/// It is the fast way to read the metadata a store wrote; anything it does not read (another
/// format, a value of another kind, a damaged list) gives `nil`, and the caller reads the list
/// with `PropertyListSerialization`, which also names what is wrong.
struct BinaryPropertyList {
    /// One value of the list.
    indirect enum Value: Equatable {
        case string(String)
        case data(Data)
        case integer(Int64)
        case real(Double)
        case boolean(Bool)
        case date(Date)
        case array([Value])
        case dictionary([String: Value])
    }

    private let bytes: [UInt8]
    private let offsets: [Int]
    private let referenceSize: Int

    /// The top value of the list in `data`; `nil` when it is not a binary property list this
    /// reader reads.
    static func value(of data: Data) -> Value? {
        guard let list = BinaryPropertyList(Array(data)) else { return nil }
        return list.value
    }

    private let top: Int

    private init?(_ bytes: [UInt8]) {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else { return nil }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let count = Self.unsigned(bytes, at: trailer + 8, size: 8),
            let top = Self.unsigned(bytes, at: trailer + 16, size: 8),
            let table = Self.unsigned(bytes, at: trailer + 24, size: 8),
            count > 0, count <= UInt64(bytes.count), top < count, table >= 8, table <= UInt64(trailer),
            table + count * UInt64(offsetSize) <= UInt64(trailer)
        else { return nil }
        var offsets: [Int] = []
        offsets.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            guard let offset = Self.unsigned(bytes, at: Int(table) + index * offsetSize, size: offsetSize),
                offset >= 8, offset < table
            else { return nil }
            offsets.append(Int(offset))
        }
        self.bytes = bytes
        self.offsets = offsets
        self.referenceSize = referenceSize
        self.top = Int(top)
    }

    private var value: Value? { value(at: top, depth: 0) }

    /// The value of object `index`; nesting deeper than 16 levels (or a cycle) gives `nil`.
    private func value(at index: Int, depth: Int) -> Value? {
        guard index < offsets.count, depth < 16 else { return nil }
        let start = offsets[index]
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .boolean(false)
            case 0x09: return .boolean(true)
            default: return nil
            }
        case 0x1:
            guard low <= 3, let raw = Self.unsigned(bytes, at: start + 1, size: 1 << low) else { return nil }
            return .integer(low == 3 ? Int64(bitPattern: raw) : Int64(raw))
        case 0x2:
            guard let raw = Self.unsigned(bytes, at: start + 1, size: 1 << low) else { return nil }
            switch low {
            case 2: return .real(Double(Float(bitPattern: UInt32(raw))))
            case 3: return .real(Double(bitPattern: raw))
            default: return nil
            }
        case 0x3:
            guard marker == 0x33, let raw = Self.unsigned(bytes, at: start + 1, size: 8) else { return nil }
            return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: raw)))
        case 0x4:
            guard let (length, body) = length(low, at: start), body + length <= bytes.count else { return nil }
            return .data(Data(bytes[body..<(body + length)]))
        case 0x5:
            guard let (length, body) = length(low, at: start), body + length <= bytes.count,
                let text = String(bytes: bytes[body..<(body + length)], encoding: .ascii)
            else { return nil }
            return .string(text)
        case 0x6:
            guard let (length, body) = length(low, at: start), body + 2 * length <= bytes.count else { return nil }
            let units = (0..<length).map { UInt16(bytes[body + 2 * $0]) << 8 | UInt16(bytes[body + 2 * $0 + 1]) }
            return .string(String(decoding: units, as: UTF16.self))
        case 0xA:
            guard let (count, body) = length(low, at: start), let references = references(count, at: body) else {
                return nil
            }
            var values: [Value] = []
            for reference in references {
                guard let value = value(at: reference, depth: depth + 1) else { return nil }
                values.append(value)
            }
            return .array(values)
        case 0xD:
            guard let (count, body) = length(low, at: start), let keys = references(count, at: body),
                let objects = references(count, at: body + count * referenceSize)
            else { return nil }
            var values: [String: Value] = [:]
            for (key, object) in zip(keys, objects) {
                guard case .string(let name)? = value(at: key, depth: depth + 1),
                    let value = value(at: object, depth: depth + 1)
                else { return nil }
                values[name] = value
            }
            return .dictionary(values)
        default:
            return nil
        }
    }

    /// The length a marker's low nibble gives (or the integer after it when the nibble is
    /// 0xF), and where the body starts.
    private func length(_ low: Int, at start: Int) -> (Int, Int)? {
        guard low == 0x0F else { return (low, start + 1) }
        guard start + 1 < bytes.count, bytes[start + 1] >> 4 == 0x1 else { return nil }
        let size = 1 << Int(bytes[start + 1] & 0x0F)
        guard size <= 8, let length = Self.unsigned(bytes, at: start + 2, size: size), length <= UInt64(bytes.count)
        else { return nil }
        return (Int(length), start + 2 + size)
    }

    /// `count` object references from `start`.
    private func references(_ count: Int, at start: Int) -> [Int]? {
        guard start + count * referenceSize <= bytes.count else { return nil }
        var references: [Int] = []
        references.reserveCapacity(count)
        for index in 0..<count {
            guard let reference = Self.unsigned(bytes, at: start + index * referenceSize, size: referenceSize) else {
                return nil
            }
            references.append(Int(clamping: reference))
        }
        return references
    }

    /// The big-endian unsigned integer of `size` bytes at `start`; `nil` past the end.
    private static func unsigned(_ bytes: [UInt8], at start: Int, size: Int) -> UInt64? {
        guard start >= 0, size <= 8, start + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for index in start..<(start + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }
}

extension BinaryPropertyList.Value {
    /// The text of a string.
    var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number of an integer.
    var integer: Int64? {
        if case .integer(let number) = self { return number }
        return nil
    }

    /// The bytes of a data value.
    var data: Data? {
        if case .data(let bytes) = self { return bytes }
        return nil
    }

    /// The texts of an array holding only strings.
    var strings: [String]? {
        guard case .array(let items) = self else { return nil }
        let texts = items.compactMap(\.string)
        return texts.count == items.count ? texts : nil
    }

    /// The bytes of each value of a dictionary holding only data values.
    var dataByName: [String: Data]? {
        guard case .dictionary(let values) = self else { return nil }
        let bytes = values.compactMapValues(\.data)
        return bytes.count == values.count ? bytes : nil
    }
}
