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
@_spi(StoreAuthoring) public struct CRC32C: Sendable, Hashable {
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

    /// Adds the bytes of `buffer` to the checksum: eight bytes a step through eight tables
    /// ("slicing by 8"), then the rest one byte at a time.
    public mutating func update(_ buffer: UnsafeRawBufferPointer) {
        var crc = register
        Self.tables.withUnsafeBufferPointer { tables in
            var offset = 0
            while offset + 8 <= buffer.count {
                let low = crc ^ UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                let high = UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                crc =
                    tables[7 << 8 | Int(low & 0xFF)] ^ tables[6 << 8 | Int(low >> 8 & 0xFF)]
                    ^ tables[5 << 8 | Int(low >> 16 & 0xFF)] ^ tables[4 << 8 | Int(low >> 24)]
                    ^ tables[3 << 8 | Int(high & 0xFF)] ^ tables[2 << 8 | Int(high >> 8 & 0xFF)]
                    ^ tables[1 << 8 | Int(high >> 16 & 0xFF)] ^ tables[Int(high >> 24)]
                offset += 8
            }
            while offset < buffer.count {
                crc = tables[Int(UInt8(truncatingIfNeeded: crc) ^ buffer[offset])] ^ (crc >> 8)
                offset += 1
            }
        }
        register = crc
    }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32C()
        crc.update(bytes)
        return crc.value
    }

    /// Eight tables of 256 entries, one after another. The first is the remainder of each byte
    /// value; entry `i` of table `k` is the remainder of byte `i` followed by `k` zero bytes.
    private static let tables: [UInt32] = {
        let first: [UInt32] = (0..<256).map { index in
            (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        var tables = first
        for _ in 1..<8 {
            let previous = tables.suffix(256)
            tables += previous.map { ($0 >> 8) ^ first[Int($0 & 0xFF)] }
        }
        return tables
    }()
}
