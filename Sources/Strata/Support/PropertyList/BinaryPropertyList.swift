import Foundation

/// Reads Apple binary property lists (`bplist00`), the format of compiled models (`.mom`),
/// compiled mapping models (`.cdm`), the archived expressions in Xcode mapping models and the
/// metadata of SQLite stores.
///
/// Foundation's `PropertyListSerialization` is not used: on Linux it hides the keyed
/// archiver's object references, which an archive reader must follow, and it bridges every
/// value through `NSDictionary`, copying data values byte by byte.
///
/// The layout, as CoreFoundation's `CFBinaryPList.c` writes it: the 8-byte header `bplist00`;
/// the objects; the offset table, giving the byte offset of each object in order; and a 32-byte
/// trailer holding the size of an offset, the size of an object reference, the number of
/// objects, the top object and where the offset table starts. Containers refer to their
/// elements by their number in the offset table.
///
/// ```swift
/// let value = try BinaryPropertyList.parse(Data(contentsOf: url), file: url.path)
/// ```
///
/// Every offset, count and reference is checked against the file, so a damaged or hostile
/// file makes ``parse(_:file:)`` throw rather than crash. Each object is read once, however
/// many containers refer to it.
package enum BinaryPropertyList {
    /// How many arrays, sets and dictionaries may be nested inside one another. The files
    /// Strata reads nest four deep at most; the limit keeps a hostile file from exhausting the
    /// stack.
    package static let maximumDepth = 256

    /// The value of the binary property list `data`, the contents of the file `file`.
    ///
    /// - Throws: `ModelError` with code `ModelError/Code/malformedFile`, naming `file` and the
    ///   byte offset of the problem, when `data` is not a well-formed binary property list: a
    ///   header other than `bplist00`, a trailer, offset or count pointing outside the file,
    ///   a reference to an object that does not exist, an unknown object type, a dictionary key
    ///   that is not a string, an integer that does not fit in 64 bits, a container that
    ///   contains itself, or containers nested more than ``maximumDepth`` deep.
    package static func parse(_ data: Data, file: String) throws(ModelError) -> PropertyListValue {
        var reader = try BinaryPropertyListReader(bytes: [UInt8](data), file: file)
        let top = reader.topObject
        return try reader.object(top, depth: 0)
    }
}

/// Reads the objects of one binary property list, remembering each one it has read.
private struct BinaryPropertyListReader {
    /// What is known of one object.
    private enum Slot {
        case unread
        /// Being read: meeting it again means a container contains itself.
        case reading
        case read(PropertyListValue)
    }

    private static let header = Array("bplist00".utf8)
    private static let trailerSize = 32

    private let bytes: [UInt8]
    private let file: String
    /// The size in bytes of an entry of the offset table.
    private let offsetSize: Int
    /// The size in bytes of a reference from a container to an object.
    private let referenceSize: Int
    /// The number of objects, and of entries in the offset table.
    private let objectCount: Int
    /// The number of the object the file stands for.
    let topObject: Int
    /// Where the offset table starts; every object lies between the header and here.
    private let objectsEnd: Int
    private var slots: [Slot]

    /// Checks the header, the trailer and the bounds of the offset table of `bytes`.
    init(bytes: [UInt8], file: String) throws(ModelError) {
        guard bytes.count >= Self.header.count, bytes[0..<Self.header.count].elementsEqual(Self.header) else {
            throw Self.failure(file, 0, "the file does not start with 'bplist00', so it is not a binary property list")
        }
        guard bytes.count >= Self.header.count + Self.trailerSize + 2 else {
            throw Self.failure(
                file, bytes.count, "the file ends before its 32-byte trailer (it is \(bytes.count) bytes long)")
        }
        let trailer = bytes.count - Self.trailerSize
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let objectCount = Self.unsigned(bytes, at: trailer + 8, size: 8)
        let topObject = Self.unsigned(bytes, at: trailer + 16, size: 8)
        let tableStart = Self.unsigned(bytes, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize) else {
            throw Self.failure(file, trailer + 6, "the trailer gives an offset size of \(offsetSize) bytes")
        }
        guard (1...8).contains(referenceSize) else {
            throw Self.failure(
                file, trailer + 7, "the trailer gives an object reference size of \(referenceSize) bytes")
        }
        guard objectCount >= 1, objectCount <= UInt64(bytes.count) else {
            throw Self.failure(file, trailer + 8, "the trailer gives \(objectCount) objects")
        }
        guard topObject < objectCount else {
            throw Self.failure(
                file, trailer + 16, "the top object is number \(topObject), but the file has \(objectCount) objects")
        }
        guard tableStart > UInt64(Self.header.count), tableStart <= UInt64(trailer),
            Int(objectCount) <= (trailer - Int(tableStart)) / offsetSize
        else {
            throw Self.failure(
                file, trailer + 24,
                "the offset table of \(objectCount) entries of \(offsetSize) bytes at byte offset \(tableStart) "
                    + "does not fit between the objects and the trailer")
        }
        self.bytes = bytes
        self.file = file
        self.offsetSize = offsetSize
        self.referenceSize = referenceSize
        self.objectCount = Int(objectCount)
        self.topObject = Int(topObject)
        self.objectsEnd = Int(tableStart)
        self.slots = Array(repeating: .unread, count: Int(objectCount))
    }

    /// The value of object number `number` (less than `objectCount`), read at the first call.
    ///
    /// `depth` is the number of containers around it.
    mutating func object(_ number: Int, depth: Int) throws(ModelError) -> PropertyListValue {
        switch slots[number] {
        case .read(let value):
            return value
        case .reading:
            let start = try offset(of: number)
            throw failure(start, "object \(number) contains itself")
        case .unread:
            break
        }
        slots[number] = .reading
        let start = try offset(of: number)
        let marker = bytes[start]
        let value: PropertyListValue
        switch marker >> 4 {
        case 0xA, 0xC, 0xD:
            value = try container(at: start, depth: depth)
        default:
            value = try scalar(at: start)
        }
        slots[number] = .read(value)
        return value
    }

    /// The byte offset of object `number`, from the offset table.
    private func offset(of number: Int) throws(ModelError) -> Int {
        let entry = objectsEnd + number * offsetSize
        let offset = Self.unsigned(bytes, at: entry, size: offsetSize)
        guard offset >= UInt64(Self.header.count), offset < UInt64(objectsEnd) else {
            throw failure(
                entry,
                "the offset table places object \(number) at byte offset \(offset), outside the objects "
                    + "(bytes 8 to \(objectsEnd - 1))")
        }
        return Int(offset)
    }

    /// The object at `start` that is not a container.
    private func scalar(at start: Int) throws(ModelError) -> PropertyListValue {
        let marker = bytes[start]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch low {
            case 0x0: return .null
            case 0x8: return .boolean(false)
            case 0x9: return .boolean(true)
            default: throw failure(start, "unknown object marker 0x\(String(marker, radix: 16))")
            }
        case 0x1:
            return .integer(try integer(at: start))
        case 0x2:
            guard low == 2 || low == 3 else {
                throw failure(start, "a real number of \(1 << low) bytes; only 4 and 8 bytes are allowed")
            }
            let size = 1 << low
            try requireBytes(size, at: start + 1, of: start)
            let bits = Self.unsigned(bytes, at: start + 1, size: size)
            guard size == 4 else { return .real(Double(bitPattern: bits)) }
            return .real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits))))
        case 0x3:
            guard low == 3 else { throw failure(start, "unknown object marker 0x\(String(marker, radix: 16))") }
            try requireBytes(8, at: start + 1, of: start)
            let seconds = Double(bitPattern: Self.unsigned(bytes, at: start + 1, size: 8))
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case 0x4:
            let (count, contents) = try elementCount(at: start)
            try requireBytes(count, at: contents, of: start)
            return .data(Data(bytes[contents..<contents + count]))
        case 0x5:
            let (count, contents) = try elementCount(at: start)
            try requireBytes(count, at: contents, of: start)
            return .string(String(decoding: bytes[contents..<contents + count], as: UTF8.self))
        case 0x6:
            let (count, contents) = try elementCount(at: start)
            try requireBytes(count * 2, at: contents, of: start)
            var units: [UInt16] = []
            units.reserveCapacity(count)
            var position = contents
            for _ in 0..<count {
                units.append(UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1]))
                position += 2
            }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            let size = low + 1
            guard size <= 8 else { throw failure(start, "an object reference (UID) of \(size) bytes") }
            try requireBytes(size, at: start + 1, of: start)
            let value = Self.unsigned(bytes, at: start + 1, size: size)
            guard value <= UInt64(Int.max) else {
                throw failure(start, "the object reference (UID) \(value) is too large")
            }
            return .uid(Int(value))
        default:
            throw failure(start, "unknown object marker 0x\(String(marker, radix: 16))")
        }
    }

    /// The array, set or dictionary at `start`, with its elements read.
    private mutating func container(at start: Int, depth: Int) throws(ModelError) -> PropertyListValue {
        guard depth < BinaryPropertyList.maximumDepth else {
            throw failure(start, "containers are nested more than \(BinaryPropertyList.maximumDepth) deep")
        }
        let kind = bytes[start] >> 4
        let (count, contents) = try elementCount(at: start)
        let references = kind == 0xD ? count * 2 : count
        try requireBytes(references * referenceSize, at: contents, of: start)
        if kind == 0xD {
            var dictionary: [String: PropertyListValue] = [:]
            dictionary.reserveCapacity(count)
            for index in 0..<count {
                let keyPosition = contents + index * referenceSize
                let key = try object(try reference(at: keyPosition), depth: depth + 1)
                guard case .string(let name) = key else {
                    throw failure(keyPosition, "a dictionary key is \(key.kindDescription), not a string")
                }
                let valuePosition = contents + (count + index) * referenceSize
                dictionary[name] = try object(try reference(at: valuePosition), depth: depth + 1)
            }
            return .dictionary(dictionary)
        }
        var elements: [PropertyListValue] = []
        elements.reserveCapacity(count)
        for index in 0..<count {
            elements.append(try object(try reference(at: contents + index * referenceSize), depth: depth + 1))
        }
        return kind == 0xA ? .array(elements) : .set(elements)
    }

    /// The object number stored at `position`, checked against the number of objects.
    private func reference(at position: Int) throws(ModelError) -> Int {
        let number = Self.unsigned(bytes, at: position, size: referenceSize)
        guard number < UInt64(objectCount) else {
            throw failure(position, "a reference to object \(number), but the file has \(objectCount) objects")
        }
        return Int(number)
    }

    /// The integer at `start`: 1, 2 and 4-byte integers are unsigned, 8 and 16-byte ones signed.
    private func integer(at start: Int) throws(ModelError) -> Int64 {
        let low = Int(bytes[start] & 0x0F)
        guard low <= 4 else { throw failure(start, "an integer of \(1 << low) bytes; at most 16 are allowed") }
        let size = 1 << low
        try requireBytes(size, at: start + 1, of: start)
        switch size {
        case 16:
            let high = Self.unsigned(bytes, at: start + 1, size: 8)
            let value = Int64(bitPattern: Self.unsigned(bytes, at: start + 9, size: 8))
            guard (high == 0 && value >= 0) || (high == UInt64.max && value < 0) else {
                throw failure(start, "a 16-byte integer that does not fit in 64 bits")
            }
            return value
        case 8:
            return Int64(bitPattern: Self.unsigned(bytes, at: start + 1, size: 8))
        default:
            return Int64(Self.unsigned(bytes, at: start + 1, size: size))
        }
    }

    /// The element count of the data, string or container at `start`, and where its contents
    /// begin: the marker's low nibble, or when that is `0xF`, the integer object that follows.
    private func elementCount(at start: Int) throws(ModelError) -> (count: Int, contents: Int) {
        let low = Int(bytes[start] & 0x0F)
        guard low == 0x0F else { return (low, start + 1) }
        let position = start + 1
        guard position < objectsEnd, bytes[position] >> 4 == 0x1 else {
            throw failure(position, "the count of the object at byte offset \(start) is not an integer")
        }
        let count = try integer(at: position)
        guard count >= 0, count <= Int64(objectsEnd) else {
            throw failure(position, "the object at byte offset \(start) has a count of \(count)")
        }
        return (Int(count), position + 1 + (1 << Int(bytes[position] & 0x0F)))
    }

    /// Checks that `length` bytes from `position` lie inside the objects; `start` is the
    /// object they belong to.
    private func requireBytes(_ length: Int, at position: Int, of start: Int) throws(ModelError) {
        guard length >= 0, position <= objectsEnd, length <= objectsEnd - position else {
            throw failure(start, "the object runs past the end of the objects (byte offset \(objectsEnd))")
        }
    }

    private func failure(_ offset: Int, _ reason: String) -> ModelError {
        Self.failure(file, offset, reason)
    }

    private static func failure(_ file: String, _ offset: Int, _ reason: String) -> ModelError {
        ModelError(
            code: .malformedFile,
            message: "'\(file)', byte offset \(offset): malformed binary property list: \(reason).", filePath: file)
    }

    /// The big-endian unsigned integer of `size` bytes (1 to 8) at `position`; the caller has
    /// checked the bounds.
    private static func unsigned(_ bytes: [UInt8], at position: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in position..<position + size {
            value = value << 8 | UInt64(bytes[index])
        }
        return value
    }
}
