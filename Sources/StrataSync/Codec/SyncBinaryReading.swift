@_spi(StoreAuthoring) import Strata

extension SyncBinary {
    /// A reader of the `kind` payload `bytes`, past its header.
    ///
    /// - Throws: `StoreError` with code `corrupt` when the bytes do not begin with that header.
    static func reader(of bytes: [UInt8], _ kind: Kind, source: String) throws -> BinaryReader {
        var reader = BinaryReader(bytes, source: source)
        guard try reader.readRaw(header.count, "the header") == header[...] else {
            throw reader.corrupt("no sync payload of version \(header[2]) begins so", at: 0)
        }
        let found = try reader.readByte("the kind")
        guard found == kind.rawValue else { throw reader.corrupt("kind \(found) where \(kind.rawValue) was expected") }
        return reader
    }

    /// Reads a `kind` payload with `body`, which must read it to its end.
    static func decode<Value>(
        _ bytes: [UInt8], _ kind: Kind, source: String, _ body: (inout BinaryReader) throws -> Value
    ) throws -> Value {
        var reader = try reader(of: bytes, kind, source: source)
        let value = try body(&reader)
        guard reader.isAtEnd else { throw reader.corrupt("\(reader.remaining) bytes follow the payload") }
        return value
    }
}

extension BinaryReader {
    mutating func readGlobalID(_ what: @autoclosure () -> String) throws -> GlobalID {
        GlobalID(try readUUID(what()))
    }

    mutating func readStamp(_ what: @autoclosure () -> String) throws -> SyncTimestamp {
        let milliseconds = try readSigned(what())
        let counter = try readVarint(what())
        guard let counter = UInt32(exactly: counter) else { throw corrupt("\(what()) has a counter over 32 bits") }
        return SyncTimestamp(milliseconds: milliseconds, counter: counter, replica: ReplicaID(try readUUID(what())))
    }

    mutating func readOptionalStamp(_ what: @autoclosure () -> String) throws -> SyncTimestamp? {
        switch try readByte(what()) {
        case 0: return nil
        case 1: return try readStamp(what())
        case let flag: throw corrupt("\(what()) is marked \(flag), neither absent (0) nor present (1)")
        }
    }

    mutating func readSyncValue(_ what: @autoclosure () -> String) throws -> SyncValue {
        let start = offset
        switch try readByte(what()) {
        case 0:
            let value = try readValue(what())
            if case .objectID = value { throw corrupt("\(what()) is a store's object ID", at: start) }
            return .attribute(value)
        case 1: return .reference(nil)
        case 2: return .reference(try readGlobalID(what()))
        case let kind:
            throw corrupt("\(what()) is of kind \(kind), not an attribute (0) or reference (1, 2)", at: start)
        }
    }

    mutating func readPosition(_ what: @autoclosure () -> String) throws -> OrderPosition {
        let start = offset
        let text = try readString(what())
        guard let position = OrderPosition(text) else {
            throw corrupt("\(what()) '\(text.prefix(64))' is not an order position", at: start)
        }
        return position
    }

    mutating func readOperation() throws -> SyncOperation {
        let object = try readGlobalID("an operation's object")
        let entity = try readString("an operation's entity")
        let stamp = try readStamp("an operation's timestamp")
        let start = offset
        let change: SyncOperation.Change
        switch try readByte("an operation's change") {
        case 0: change = .insert
        case 1: change = .set(key: try readString("a key"), value: try readSyncValue("a set value"))
        case 2: change = .add(key: try readString("a key"), member: try readGlobalID("an added member"))
        case 3:
            let key = try readString("a key")
            let member = try readGlobalID("a removed member")
            let count = try readCount("a removal's observed additions")
            var observed: [SyncTimestamp] = []
            // Bounded by what the bytes left can hold (a timestamp takes 18 bytes at least).
            observed.reserveCapacity(min(count, remaining / 18))
            for _ in 0..<count { observed.append(try readStamp("an observed addition")) }
            change = .remove(key: key, member: member, observed: observed)
        case 4:
            change = .place(
                key: try readString("a key"), member: try readGlobalID("a placed member"),
                position: try readPosition("a position"))
        case 5: change = .delete
        case let kind: throw corrupt("an operation's change is of kind \(kind), not 0 to 5", at: start)
        }
        return SyncOperation(object: object, entity: entity, stamp: stamp, change: change)
    }

    mutating func readOperations() throws -> [SyncOperation] {
        let count = try readCount("the operations")
        var operations: [SyncOperation] = []
        // Bounded by what the bytes left can hold (an operation takes 37 bytes at least).
        operations.reserveCapacity(min(count, remaining / 37))
        for _ in 0..<count { operations.append(try readOperation()) }
        return operations
    }

    mutating func readOptionalSequence(_ what: @autoclosure () -> String) throws -> Int64? {
        switch try readByte(what()) {
        case 0: return nil
        case 1: return try readSigned(what())
        case let flag: throw corrupt("\(what()) is marked \(flag), neither absent (0) nor present (1)")
        }
    }

    mutating func readPush() throws -> SyncPush {
        let id = try readUUID("the push's ID")
        let replica = ReplicaID(try readUUID("the push's replica"))
        let seen = try readOptionalSequence("what the push saw")
        return SyncPush(id: id, replica: replica, operations: try readOperations(), seen: seen)
    }

    mutating func readMergedObject() throws -> MergedObject {
        let entity = try readString("the entity")
        var registers: [String: MergedObject.Register] = [:]
        for _ in 0..<(try readCount("the registers")) {
            let key = try readString("a register's key")
            registers[key] = MergedObject.Register(
                value: try readSyncValue("the value of '\(key)'"), stamp: try readStamp("the stamp of '\(key)'"))
        }
        var relationships: [String: ObservedRemoveSet] = [:]
        for _ in 0..<(try readCount("the relationships")) {
            let key = try readString("a relationship's key")
            relationships[key] = ObservedRemoveSet(
                additions: try readTags("the additions to '\(key)'"),
                removals: try readTags("the removals from '\(key)'"))
        }
        var placements: [String: [GlobalID: MergedObject.Placement]] = [:]
        for _ in 0..<(try readCount("the ordered relationships")) {
            let key = try readString("an ordered relationship's key")
            var members: [GlobalID: MergedObject.Placement] = [:]
            for _ in 0..<(try readCount("the placements in '\(key)'")) {
                let member = try readGlobalID("a placed member")
                members[member] = MergedObject.Placement(
                    position: try readPosition("a position"), stamp: try readStamp("a placement's stamp"))
            }
            placements[key] = members
        }
        return MergedObject(
            entity: entity, registers: registers, relationships: relationships, placements: placements,
            deletion: try readOptionalStamp("the deletion"), lastWrite: try readOptionalStamp("the last write"),
            insertion: try readOptionalStamp("the insertion"))
    }

    private mutating func readTags(_ what: @autoclosure () -> String) throws -> [GlobalID: Set<SyncTimestamp>] {
        var tags: [GlobalID: Set<SyncTimestamp>] = [:]
        for _ in 0..<(try readCount(what())) {
            let member = try readGlobalID(what())
            var stamps = Set<SyncTimestamp>()
            for _ in 0..<(try readCount(what())) { stamps.insert(try readStamp(what())) }
            tags[member] = stamps
        }
        return tags
    }
}
