@_spi(StoreAuthoring) import Strata

/// Reads a binary store file ``BinaryStoreEncoder`` wrote, checking, in this order, the magic
/// bytes (another kind of file), the header's checksum, the format version (a newer one is
/// `StoreError/Code/unsupported`), the length (a file cut short), the whole file's checksum
/// (any flipped byte), and then every value as it reads the body.
struct BinaryStoreDecoder {
    let bytes: [UInt8]
    /// The file as messages name it.
    let source: String

    /// The file's contents, each snapshot's values held by the slots of its entity in `schema`
    /// when one is given (and the record's values are that entity's), by name otherwise.
    func contents(slotsOf schema: ModelSchema? = nil) throws -> AtomicStoreContents {
        let bodyLength = try checkFrame()
        var reader = BinaryReader(
            Array(bytes[..<(BinaryStoreFormat.headerLength + bodyLength)]), from: BinaryStoreFormat.headerLength,
            source: source)
        let metadata = try reader.readMetadata()
        let nextReference = try reader.readSigned("the next reference")
        reader.context.homeStoreIdentifier = metadata.storeIdentifier
        reader.context.entityNames = try readNames(&reader, "entity names")
        var nodes: [StoreNode] = []
        for entityName in reader.context.entityNames {
            reader.context.propertyNames = try readNames(&reader, "property names of \(entityName)")
            let count = try reader.readCount("the number of \(entityName) records")
            nodes.reserveCapacity(nodes.count + count)
            let entity = schema?.entitiesByName[entityName]
            for index in 0..<count {
                let start = reader.offset
                let node = try reader.readNode("\(entityName) record \(index)", slotsOf: entity)
                guard node.snapshot.objectID.entityName == entityName else {
                    throw reader.corrupt(
                        "\(entityName) record \(index) is a \(node.snapshot.objectID.entityName)", at: start)
                }
                nodes.append(node)
            }
        }
        guard reader.isAtEnd else { throw reader.corrupt("\(reader.remaining) bytes follow the last record") }
        return AtomicStoreContents(metadata: metadata, nodes: nodes, nextReference: nextReference)
    }

    /// The format version in the header, after checking the magic bytes; `bytes` may hold the
    /// header alone.
    func formatVersion() throws -> UInt16 {
        try checkMagic()
        var header = BinaryReader(bytes, source: source)
        _ = try header.readRaw(BinaryStoreFormat.magic.count, "the magic bytes")
        return try header.readFixed16("the format version")
    }

    /// Throws `StoreError/Code/corrupt` unless the file starts with the binary store's magic bytes.
    private func checkMagic() throws {
        let magic = BinaryStoreFormat.magic
        guard bytes.starts(with: magic) else {
            let what =
                bytes.count < magic.count && magic.starts(with: bytes) ? "a file cut short" : "another kind of file"
            throw StoreError(
                code: .corrupt,
                message: "\(source) is not a binary store: its first bytes are not the binary store's magic "
                    + "bytes, so it is \(what).")
        }
    }

    /// Checks the header and trailer; returns the body's length.
    private func checkFrame() throws -> Int {
        var header = BinaryReader(bytes, source: source)
        let magic = BinaryStoreFormat.magic
        try checkMagic()
        guard bytes.count >= BinaryStoreFormat.headerLength else {
            throw header.corrupt(
                "the file ends inside its \(BinaryStoreFormat.headerLength)-byte header", at: bytes.count)
        }
        _ = try header.readRaw(magic.count, "the magic bytes")
        let version = try header.readFixed16("the format version")
        let flags = try header.readFixed16("the flags")
        let bodyLength = try header.readFixed64("the body length")
        let headerChecksum = try header.readFixed32("the header checksum")
        guard headerChecksum == CRC32C.checksum(bytes[..<BinaryStoreFormat.headerChecksumOffset]) else {
            throw header.corrupt("the header's checksum does not match it", at: BinaryStoreFormat.headerChecksumOffset)
        }
        guard version <= BinaryStoreFormat.version else {
            throw StoreError(
                code: .unsupported,
                message: "\(source) was written in format version \(version) of the binary store; this one reads "
                    + "versions up to \(BinaryStoreFormat.version). Use a newer Strata.")
        }
        guard version >= 1, flags == 0 else {
            throw header.corrupt(
                "the header names format version \(version) with flags \(flags)", at: BinaryStoreFormat.versionOffset)
        }
        // Added only once the length is known to be small: a crafted length must not overflow.
        let expected = UInt64(BinaryStoreFormat.headerLength + BinaryStoreFormat.trailerLength) &+ bodyLength
        guard bodyLength < UInt64(Int.max / 2), UInt64(bytes.count) == expected else {
            throw header.corrupt(
                "the header gives a length of \(expected) bytes but the file has \(bytes.count)"
                    + (UInt64(bytes.count) < expected ? "; it was cut short" : ""), at: bytes.count)
        }
        let end = bytes.count - BinaryStoreFormat.trailerLength
        var trailer = BinaryReader(bytes, from: end, source: source)
        guard try trailer.readFixed32("the file checksum") == CRC32C.checksum(bytes[..<end]) else {
            throw header.corrupt("the file's checksum does not match its contents; bytes were changed", at: end)
        }
        return Int(bodyLength)
    }

    private func readNames(_ reader: inout BinaryReader, _ what: String) throws -> [String] {
        let count = try reader.readCount("the number of \(what)")
        var names: [String] = []
        var seen: Set<String> = []
        for _ in 0..<count {
            let start = reader.offset
            let name = try reader.readString("one of the \(what)")
            guard seen.insert(name).inserted else {
                throw reader.corrupt("'\(name)' is listed twice among the \(what)", at: start)
            }
            names.append(name)
        }
        return names
    }
}
