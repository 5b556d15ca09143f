import Foundation

extension BinaryWriter {
    /// Appends `value`: its tag byte (``BinaryValueTag``), then its payload. Numbers keep their
    /// exact width; doubles, floats and dates keep their exact bits (NaN payloads, signed zeros,
    /// infinities); decimals keep their exponent, sign and mantissa words.
    public mutating func write(value: AttributeValue) {
        switch value {
        case .null: write(tag: .null)
        case .integer16(let number): write(tag: .integer16, signed: Int64(number))
        case .integer32(let number): write(tag: .integer32, signed: Int64(number))
        case .integer64(let number): write(tag: .integer64, signed: number)
        case .decimal(let decimal):
            write(tag: .decimal)
            write(decimal: decimal)
        case .double(let number):
            write(tag: .double)
            write(fixed: number.bitPattern)
        case .float(let number):
            write(tag: .float)
            write(fixed: number.bitPattern)
        case .string(let string):
            write(tag: .string)
            write(string: string)
        case .boolean(let flag): write(tag: flag ? .booleanTrue : .booleanFalse)
        case .date(let date):
            write(tag: .date)
            write(fixed: date.timeIntervalSinceReferenceDate.bitPattern)
        case .binary(let data):
            write(tag: .binary)
            write(bytes: data)
        case .uuid(let uuid):
            write(tag: .uuid)
            withUnsafeBytes(of: uuid.uuid) { write(raw: $0) }
        case .uri(let url):
            write(tag: .uri)
            write(string: url.absoluteString)
        case .objectID(let id):
            write(tag: .objectID)
            write(objectID: id)
        }
    }

    /// Appends `decimal` exactly: its exponent (zigzag), a flags byte (bit 0 negative, bit 1 NaN),
    /// then its integer significand (at most 128 bits) as a length-prefixed little-endian byte
    /// string without high zero bytes.
    public mutating func write(decimal: Decimal) {
        write(signed: Int64(decimal.exponent))
        write(byte: (decimal.sign == .minus ? 1 : 0) | (decimal.isNaN ? 2 : 0))
        var significand = decimal.isNaN ? 0 : UInt128(decimal.significand.description) ?? 0
        var bytes: [UInt8] = []
        while significand != 0 {
            bytes.append(UInt8(truncatingIfNeeded: significand))
            significand >>= 8
        }
        write(bytes: bytes)
    }

    /// Appends `id`: a layout byte (``BinaryObjectIDLayout``), the store identifier unless it is
    /// missing or the context's home store, the entity name (or its index in the context's
    /// table), then the reference (16 UUID bytes, a zigzag integer, or a string).
    public mutating func write(objectID id: ObjectID) {
        var layout: UInt8
        switch id.reference {
        case .temporary: layout = BinaryObjectIDLayout.temporary
        case .integer: layout = BinaryObjectIDLayout.integer
        case .string: layout = BinaryObjectIDLayout.string
        }
        if let store = id.storeIdentifier {
            layout |=
                store == context.homeStoreIdentifier ? BinaryObjectIDLayout.homeStore : BinaryObjectIDLayout.inlineStore
        }
        let entityIndex = context.entityIndexes[id.entityName]
        if entityIndex != nil { layout |= BinaryObjectIDLayout.entityIndexed }
        write(byte: layout)
        if layout & BinaryObjectIDLayout.storeMask == BinaryObjectIDLayout.inlineStore, let store = id.storeIdentifier {
            write(string: store)
        }
        if let entityIndex { write(count: entityIndex) } else { write(string: id.entityName) }
        switch id.reference {
        case .temporary(let uuid): withUnsafeBytes(of: uuid.uuid) { write(raw: $0) }
        case .integer(let number): write(signed: number)
        case .string(let key): write(string: key)
        }
    }

    private mutating func write(tag: BinaryValueTag) { write(byte: tag.rawValue) }

    private mutating func write(tag: BinaryValueTag, signed number: Int64) {
        write(tag: tag)
        write(signed: number)
    }
}
