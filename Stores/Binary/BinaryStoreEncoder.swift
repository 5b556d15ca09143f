import Strata

/// Writes ``AtomicStoreContents`` as a binary store file: header, body, trailer (see
/// ``BinaryStoreFormat``). The body is the metadata, the next reference, the table of entity
/// names, then one section per entity: its table of property names, its number of records and
/// its records, each a node written with the shared codec using those tables and the store's
/// identifier as the home store.
enum BinaryStoreEncoder {
    static func encode(_ contents: AtomicStoreContents) -> [UInt8] {
        let sections = Dictionary(grouping: contents.nodes, by: \.snapshot.objectID.entityName)
        let entityNames = sections.keys.sorted()
        var body = BinaryWriter(reservingCapacity: 64 * contents.nodes.count + 4_096)
        body.write(metadata: contents.metadata)
        body.write(signed: contents.nextReference)
        body.context = BinaryCodingContext(
            homeStoreIdentifier: contents.metadata.storeIdentifier, entityNames: entityNames)
        body.write(count: entityNames.count)
        for name in entityNames { body.write(string: name) }
        for name in entityNames {
            let nodes = sections[name] ?? []
            let propertyNames = Set(nodes.flatMap { $0.snapshot.values.keys }).union(
                nodes.flatMap { $0.toManyRelationships.keys }
            ).sorted()
            body.context.propertyNames = propertyNames
            body.write(count: propertyNames.count)
            for property in propertyNames { body.write(string: property) }
            body.write(count: nodes.count)
            for node in nodes { body.write(node: node) }
        }
        var file = BinaryWriter(
            reservingCapacity: BinaryStoreFormat.headerLength + body.bytes.count + BinaryStoreFormat.trailerLength)
        file.write(raw: BinaryStoreFormat.magic)
        file.write(fixed: BinaryStoreFormat.version)
        file.write(fixed: UInt16(0))
        file.write(fixed: UInt64(body.bytes.count))
        file.write(fixed: CRC32C.checksum(file.bytes))
        file.write(raw: body.bytes)
        file.write(fixed: CRC32C.checksum(file.bytes))
        return file.bytes
    }
}
