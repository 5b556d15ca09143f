import Foundation

/// Builds the bytes of Strata's binary encoding (see `docs/BINARY-FORMAT.md`): little-endian
/// fixed-width numbers, LEB128 variable-length integers (zigzag for signed ones) and
/// length-prefixed byte strings. Values, object IDs, snapshots, nodes and metadata are written
/// by the extensions in this folder; ``BinaryReader`` reads them back.
@_spi(StoreAuthoring) public struct BinaryWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    /// The tables that shorten object IDs and property names; the reader needs the same ones.
    public var context: BinaryCodingContext

    /// An empty writer using `context`.
    public init(context: BinaryCodingContext = BinaryCodingContext(), reservingCapacity capacity: Int = 0) {
        self.context = context
        bytes.reserveCapacity(capacity)
    }

    /// Appends one byte.
    public mutating func write(byte: UInt8) { bytes.append(byte) }

    /// Appends raw bytes, with no length.
    public mutating func write(raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

    /// Appends `value` as 2 little-endian bytes.
    public mutating func write(fixed value: UInt16) { appendLittleEndian(value) }

    /// Appends `value` as 4 little-endian bytes.
    public mutating func write(fixed value: UInt32) { appendLittleEndian(value) }

    /// Appends `value` as 8 little-endian bytes.
    public mutating func write(fixed value: UInt64) { appendLittleEndian(value) }

    /// Appends `value` as an unsigned LEB128 integer: 7 bits a byte, low bits first, the high
    /// bit set on every byte but the last (1 to 10 bytes).
    public mutating func write(varint value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    /// Appends `value` zigzag-encoded (0, -1, 1, -2 … as 0, 1, 2, 3 …) as an unsigned LEB128 integer.
    public mutating func write(signed value: Int64) {
        write(varint: UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// Appends a non-negative count or length as an unsigned LEB128 integer.
    public mutating func write(count: Int) { write(varint: UInt64(count)) }

    /// Appends the length of `bytes`, then `bytes`.
    public mutating func write(bytes value: some Collection<UInt8>) {
        write(count: value.count)
        bytes.append(contentsOf: value)
    }

    /// Appends the length of the UTF-8 form of `string`, then that form.
    public mutating func write(string: String) {
        var string = string
        string.withUTF8 { write(bytes: $0) }
    }

    private mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
