/// CRC-32C (Castagnoli): the checksum of iSCSI, ext4 and LMDB tools, with the reflected
/// polynomial `0x82F63B78`, initial value and final XOR `0xFFFFFFFF`. The checksum of the ASCII
/// bytes of `"123456789"` is `0xE3069283`.
///
/// ```swift
/// var crc = CRC32C()
/// crc.update(header)
/// crc.update(body)
/// let checksum = crc.value
/// ```
public struct CRC32C: Sendable, Hashable {
    /// The running register, before the final XOR.
    private var register: UInt32 = 0xFFFF_FFFF

    /// A checksum of no bytes yet.
    public init() {}

    /// The checksum of the bytes given so far.
    public var value: UInt32 { register ^ 0xFFFF_FFFF }

    /// Adds `bytes` to the checksum.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        let contiguous: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if contiguous == nil { update(Array(bytes)) }
    }

    /// Adds the bytes of `buffer` to the checksum.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        var crc = register
        Self.table.withUnsafeBufferPointer { table in
            for byte in buffer { crc = table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] ^ (crc >> 8) }
        }
        register = crc
    }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32C()
        crc.update(bytes)
        return crc.value
    }

    /// The remainder of each byte value, for processing one byte at a time.
    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
    }
}
