import Foundation

/// Reads the bytes ``BinaryWriter`` makes. Every read checks its bounds and its values: a read
/// past the end, an overlong integer, an out-of-range count or invalid UTF-8 throws a
/// ``StoreError`` with code ``StoreError/Code/corrupt`` naming the source and the byte position,
/// never traps.
@_spi(StoreAuthoring) public struct BinaryReader: Sendable {
    /// The bytes being read.
    public let bytes: [UInt8]
    /// The position of the next byte to read.
    public internal(set) var offset: Int
    /// Where the bytes come from, as messages name it, such as `"'/path/store.strata'"`.
    public let source: String
    /// The tables the writer used.
    public var context: BinaryCodingContext

    /// A reader of `bytes` from `offset`, naming them `source` in errors.
    public init(
        _ bytes: [UInt8], from offset: Int = 0, source: String, context: BinaryCodingContext = BinaryCodingContext()
    ) {
        self.bytes = bytes
        self.offset = offset
        self.source = source
        self.context = context
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// The number of bytes left.
    public var remaining: Int { bytes.count - offset }

    /// A ``StoreError/Code/corrupt`` error saying `problem` at byte `position` (the current
    /// position unless given).
    public func corrupt(_ problem: String, at position: Int? = nil) -> StoreError {
        StoreError(code: .corrupt, message: "\(source) is damaged at byte \(position ?? offset): \(problem).")
    }

    /// Reads one byte; `what` names it in errors.
    public mutating func readByte(_ what: @autoclosure () -> String) throws -> UInt8 {
        guard offset < bytes.count else { throw corrupt("the data ends where \(what()) should be") }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Reads `count` bytes.
    public mutating func readRaw(_ count: Int, _ what: @autoclosure () -> String) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw corrupt("\(what()) needs \(count) bytes but \(remaining) are left")
        }
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    /// Reads 2 little-endian bytes.
    public mutating func readFixed16(_ what: @autoclosure () -> String) throws -> UInt16 {
        try readLittleEndian(what())
    }

    /// Reads 4 little-endian bytes.
    public mutating func readFixed32(_ what: @autoclosure () -> String) throws -> UInt32 {
        try readLittleEndian(what())
    }

    /// Reads 8 little-endian bytes.
    public mutating func readFixed64(_ what: @autoclosure () -> String) throws -> UInt64 {
        try readLittleEndian(what())
    }

    /// Reads an unsigned LEB128 integer of at most 10 bytes that fits 64 bits.
    public mutating func readVarint(_ what: @autoclosure () -> String) throws -> UInt64 {
        let start = offset
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try readByte(what())
            guard shift < 63 || byte <= 1 else { throw corrupt("\(what()) is longer than a 64-bit integer", at: start) }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }

    /// Reads a zigzag-encoded signed integer.
    public mutating func readSigned(_ what: @autoclosure () -> String) throws -> Int64 {
        let raw = try readVarint(what())
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// Reads a signed integer that must fit `T`.
    public mutating func readSigned<T: FixedWidthInteger & SignedInteger>(_: T.Type, _ what: @autoclosure () -> String)
        throws -> T
    {
        let start = offset
        guard let value = T(exactly: try readSigned(what())) else {
            throw corrupt("\(what()) does not fit a \(T.bitWidth)-bit integer", at: start)
        }
        return value
    }

    /// Reads a count or length, which must be at most the number of bytes left: every counted
    /// item takes at least one byte, so a larger count cannot be right.
    public mutating func readCount(_ what: @autoclosure () -> String) throws -> Int {
        let start = offset
        let value = try readVarint(what())
        guard value <= UInt64(remaining) else {
            throw corrupt("\(what()) is \(value), more than the \(remaining) bytes that follow", at: start)
        }
        return Int(value)
    }

    /// Reads a length-prefixed byte string.
    public mutating func readBytes(_ what: @autoclosure () -> String) throws -> ArraySlice<UInt8> {
        try readRaw(try readCount("the length of \(what())"), what())
    }

    /// Reads a length-prefixed UTF-8 string.
    public mutating func readString(_ what: @autoclosure () -> String) throws -> String {
        let start = offset
        let utf8 = try readBytes(what())
        guard let string = String(validating: utf8, as: UTF8.self) else {
            throw corrupt("\(what()) is not valid UTF-8", at: start)
        }
        return string
    }

    /// Reads an index into a table of `count` entries.
    public mutating func readIndex(_ what: @autoclosure () -> String, count: Int) throws -> Int {
        let start = offset
        let value = try readVarint(what())
        guard value < UInt64(count) else {
            throw corrupt("\(what()) is \(value), but the table has \(count) entries", at: start)
        }
        return Int(value)
    }

    private mutating func readLittleEndian<T: FixedWidthInteger>(_ what: @autoclosure () -> String) throws -> T {
        let raw = try readRaw(MemoryLayout<T>.size, what())
        var value = T.zero
        for (index, byte) in zip(raw.indices, raw) { value |= T(byte) << (8 * (index - raw.startIndex)) }
        return value
    }
}
