@_spi(StoreAuthoring) import Strata

/// Writes `AtomicStoreContents` as a binary store file: header, body, trailer (see
/// ``BinaryStoreFormat``). The body is the metadata, the next reference, the table of entity
/// names, then one section per entity: its table of property names, its number of records and
/// its records, each a node written with the shared codec using those tables and the store's
/// identifier as the home store.
enum BinaryStoreEncoder {
    static func encode(_ contents: AtomicStoreContents) -> [UInt8] {
        let sections = sections(of: contents.nodes)
        let entityNames = sections.map(\.name)
        var body = BinaryWriter(reservingCapacity: 64 * contents.nodes.count + 4_096)
        body.write(metadata: contents.metadata)
        body.write(signed: contents.nextReference)
        body.context = BinaryCodingContext(
            homeStoreIdentifier: contents.metadata.storeIdentifier, entityNames: entityNames)
        body.write(count: entityNames.count)
        for name in entityNames { body.write(string: name) }
        for (_, nodes) in sections {
            let propertyNames = propertyNames(of: nodes)
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

    /// The nodes of each entity, entities in name order. Nodes come in storage order (grouped
    /// by entity, entities in name order), which is taken as it is; other orders are grouped.
    private static func sections(of nodes: [StoreNode]) -> [(name: String, nodes: ArraySlice<StoreNode>)] {
        var runs: [(name: String, nodes: ArraySlice<StoreNode>)] = []
        var start = nodes.startIndex
        while start < nodes.endIndex {
            let name = nodes[start].snapshot.objectID.entityName
            var end = start + 1
            while end < nodes.endIndex, nodes[end].snapshot.objectID.entityName == name { end += 1 }
            if let last = runs.last?.name, last >= name {
                return Dictionary(grouping: nodes, by: \.snapshot.objectID.entityName)
                    .sorted { $0.key < $1.key }.map { ($0.key, $0.value[...]) }
            }
            runs.append((name, nodes[start..<end]))
            start = end
        }
        return runs
    }

    /// The names of every property `nodes` have a value or members for, in name order.
    private static func propertyNames(of nodes: ArraySlice<StoreNode>) -> [String] {
        var names: Set<String> = []
        var entities: [EntitySchema] = []
        for node in nodes {
            if let entity = node.snapshot.values.entity {
                if !entities.contains(where: { $0 === entity }) {
                    entities.append(entity)
                    names.formUnion(entity.slotNames.prefix(entity.persistentSlotCount))
                }
            } else {
                names.formUnion(node.snapshot.values.keys)
            }
            for name in node.toManyRelationships.keys { names.insert(name) }
        }
        return names.sorted()
    }
}
