/// The first byte of an encoded ``AttributeValue``: which case follows. The numbers are part
/// of the format (see `docs/BINARY-FORMAT.md`) and never change meaning.
enum BinaryValueTag: UInt8 {
    case null = 0
    case integer16 = 1
    case integer32 = 2
    case integer64 = 3
    case decimal = 4
    case double = 5
    case float = 6
    case string = 7
    case booleanFalse = 8
    case booleanTrue = 9
    case date = 10
    case binary = 11
    case uuid = 12
    case uri = 13
    case objectID = 14
}

/// The bits of the first byte of an encoded ``ObjectID``.
enum BinaryObjectIDLayout {
    /// Bits 0–1: the reference's kind.
    static let referenceMask: UInt8 = 0b0000_0011
    static let temporary: UInt8 = 0
    static let integer: UInt8 = 1
    static let string: UInt8 = 2
    /// Bits 2–3: where the store identifier is.
    static let storeMask: UInt8 = 0b0000_1100
    static let noStore: UInt8 = 0 << 2
    static let homeStore: UInt8 = 1 << 2
    static let inlineStore: UInt8 = 2 << 2
    /// Bit 4: the entity name is an index into the context's entity table, not inline text.
    static let entityIndexed: UInt8 = 1 << 4
    /// Bits that must be clear.
    static let unused: UInt8 = 0b1110_0000
}
