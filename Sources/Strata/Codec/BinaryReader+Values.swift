import Foundation

extension BinaryReader {
    /// Reads a value ``BinaryWriter/write(value:)`` wrote.
    public mutating func readValue(_ what: @autoclosure () -> String) throws -> AttributeValue {
        let start = offset
        let byte = try readByte("the type of \(what())")
        guard let tag = BinaryValueTag(rawValue: byte) else {
            throw corrupt("\(what()) has the unknown type tag \(byte)", at: start)
        }
        switch tag {
        case .null: return .null
        case .integer16: return .integer16(try readSigned(Int16.self, what()))
        case .integer32: return .integer32(try readSigned(Int32.self, what()))
        case .integer64: return .integer64(try readSigned(what()))
        case .decimal: return .decimal(try readDecimal(what()))
        case .double: return .double(Double(bitPattern: try readFixed64(what())))
        case .float: return .float(Float(bitPattern: try readFixed32(what())))
        case .string: return .string(try readString(what()))
        case .booleanFalse: return .boolean(false)
        case .booleanTrue: return .boolean(true)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try readFixed64(what()))))
        case .binary: return .binary(Data(try readBytes(what())))
        case .uuid: return .uuid(try readUUID(what()))
        case .uri:
            let textStart = offset
            let text = try readString(what())
            guard let url = URL(string: text) else { throw corrupt("\(what()) '\(text)' is not a URL", at: textStart) }
            return .uri(url)
        case .objectID: return .objectID(try readObjectID(what()))
        }
    }

    /// Reads a decimal ``BinaryWriter/write(decimal:)`` wrote.
    public mutating func readDecimal(_ what: @autoclosure () -> String) throws -> Decimal {
        let exponent = try readSigned(Int.self, "the exponent of \(what())")
        let flagsStart = offset
        let flags = try readByte("the flags of \(what())")
        guard flags & ~0b11 == 0 else { throw corrupt("\(what()) has unknown flags \(flags)", at: flagsStart) }
        let significandStart = offset
        let bytes = try readBytes("the significand of \(what())")
        guard bytes.count <= 16 else {
            throw corrupt("the significand of \(what()) has \(bytes.count) bytes; at most 16", at: significandStart)
        }
        if flags & 2 != 0 { return .nan }
        let significand = bytes.reversed().reduce(UInt128.zero) { $0 << 8 | UInt128($1) }
        guard -128...127 ~= exponent, let digits = Decimal(string: String(significand)) else {
            throw corrupt("\(what()) has the exponent \(exponent), outside -128 to 127", at: flagsStart)
        }
        return Decimal(sign: flags & 1 == 1 ? .minus : .plus, exponent: exponent, significand: digits)
    }

    /// Reads an object ID ``BinaryWriter/write(objectID:)`` wrote.
    public mutating func readObjectID(_ what: @autoclosure () -> String) throws -> ObjectID {
        let start = offset
        let layout = try readByte("the layout of \(what())")
        guard layout & BinaryObjectIDLayout.unused == 0,
            layout & BinaryObjectIDLayout.referenceMask <= BinaryObjectIDLayout.string
        else { throw corrupt("\(what()) has the unknown layout \(layout)", at: start) }
        let store: String?
        let storeMask = layout & BinaryObjectIDLayout.storeMask
        switch storeMask {
        case BinaryObjectIDLayout.noStore: store = nil
        case BinaryObjectIDLayout.inlineStore: store = try readString("the store identifier of \(what())")
        case BinaryObjectIDLayout.homeStore:
            guard let home = context.homeStoreIdentifier else {
                throw corrupt("\(what()) refers to a home store, but none is known", at: start)
            }
            store = home
        default: throw corrupt("\(what()) has the unknown layout \(layout)", at: start)
        }
        let entityName: String
        var homeNamespace: ObjectID.Namespace?
        if layout & BinaryObjectIDLayout.entityIndexed != 0 {
            let index = try readIndex("the entity of \(what())", count: context.entityNames.count)
            entityName = context.entityNames[index]
            if storeMask == BinaryObjectIDLayout.homeStore { homeNamespace = context.homeNamespaces[index] }
        } else {
            entityName = try readString("the entity name of \(what())")
        }
        let reference: ObjectID.Reference
        switch layout & BinaryObjectIDLayout.referenceMask {
        case BinaryObjectIDLayout.temporary: reference = .temporary(try readUUID("the reference of \(what())"))
        case BinaryObjectIDLayout.integer: reference = .integer(try readSigned("the reference of \(what())"))
        default: reference = .string(try readString("the reference of \(what())"))
        }
        if let homeNamespace { return ObjectID(homeNamespace, reference: reference) }
        return ObjectID(storeIdentifier: store, entityName: entityName, reference: reference)
    }

    /// Reads 16 UUID bytes.
    public mutating func readUUID(_ what: @autoclosure () -> String) throws -> UUID {
        let b = Array(try readRaw(16, what()))
        return UUID(
            uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
        )
    }
}
