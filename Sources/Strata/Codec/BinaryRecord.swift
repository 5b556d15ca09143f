/// A self-contained, versioned and checksummed piece of Strata's binary encoding, such as one
/// object of a key-value store: a format-version byte, the payload written by
/// ``BinaryWriter``, and the CRC-32C of both as 4 little-endian bytes.
///
/// ```swift
/// let bytes = BinaryRecord.encode(node: node)
/// let node = try BinaryRecord.decodeNode(bytes, source: "Record 12 of '/tmp/store.mdb'")
/// ```
@_spi(StoreAuthoring) public enum BinaryRecord {
    /// The version of the value encoding this build writes and the newest it reads.
    public static let formatVersion: UInt8 = 1

    /// The bytes of a record whose payload `body` writes with `context`'s tables.
    public static func encode(
        context: BinaryCodingContext = BinaryCodingContext(), _ body: (inout BinaryWriter) -> Void
    ) -> [UInt8] {
        var writer = BinaryWriter(context: context)
        writer.write(byte: formatVersion)
        body(&writer)
        writer.write(fixed: CRC32C.checksum(writer.bytes))
        return writer.bytes
    }

    /// Checks the record `bytes` and reads its payload with `body`, which must read all of it.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/corrupt`` naming `source` and the
    ///   position when the bytes are short, the checksum does not match, or the payload is bad;
    ///   ``StoreError/Code/unsupported`` when a newer format version wrote them.
    public static func decode<T>(
        _ bytes: [UInt8], source: String, context: BinaryCodingContext = BinaryCodingContext(),
        _ body: (inout BinaryReader) throws -> T
    ) throws -> T {
        let checked = try checkedPayload(bytes, source: source)
        var reader = BinaryReader(checked, from: 1, source: source, context: context)
        let value = try body(&reader)
        guard reader.isAtEnd else { throw reader.corrupt("\(reader.remaining) bytes follow the record's payload") }
        return value
    }

    /// The bytes of a record holding `node`.
    public static func encode(node: StoreNode, context: BinaryCodingContext = BinaryCodingContext()) -> [UInt8] {
        encode(context: context) { $0.write(node: node) }
    }

    /// The node in the record `bytes` (see ``decode(_:source:context:_:)``).
    public static func decodeNode(
        _ bytes: [UInt8], source: String, context: BinaryCodingContext = BinaryCodingContext()
    ) throws -> StoreNode {
        try decode(bytes, source: source, context: context) { try $0.readNode("the object") }
    }

    /// The bytes of a record holding `value`.
    public static func encode(value: AttributeValue, context: BinaryCodingContext = BinaryCodingContext()) -> [UInt8] {
        encode(context: context) { $0.write(value: value) }
    }

    /// The value in the record `bytes` (see ``decode(_:source:context:_:)``).
    public static func decodeValue(
        _ bytes: [UInt8], source: String, context: BinaryCodingContext = BinaryCodingContext()
    ) throws -> AttributeValue {
        try decode(bytes, source: source, context: context) { try $0.readValue("the value") }
    }

    /// `bytes` without their checksum, after checking it and the version byte.
    private static func checkedPayload(_ bytes: [UInt8], source: String) throws -> [UInt8] {
        let reader = BinaryReader(bytes, source: source)
        guard bytes.count >= 5 else {
            throw reader.corrupt("a record needs at least 5 bytes but has \(bytes.count)", at: 0)
        }
        let end = bytes.count - 4
        var trailer = BinaryReader(bytes, from: end, source: source)
        let stored = try trailer.readFixed32("the checksum")
        let computed = CRC32C.checksum(bytes[..<end])
        guard stored == computed else {
            throw reader.corrupt(
                "the checksum is \(hex(stored)) but the bytes before it sum to \(hex(computed))", at: end)
        }
        guard bytes[0] != 0 else { throw reader.corrupt("the format version is 0", at: 0) }
        guard bytes[0] <= formatVersion else {
            throw StoreError(
                code: .unsupported,
                message: "\(source) was written in version \(bytes[0]) of Strata's binary encoding; "
                    + "this build reads versions up to \(formatVersion). Use a newer Strata.")
        }
        return Array(bytes[..<end])
    }

    private static func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16, uppercase: true) }
}
