import Strata

/// How an entity's properties appear in the history tables: which one each bit of an update's
/// `ZCOLUMNS` stands for, and which attribute each tombstone column holds.
struct SQLiteHistoryEntity {
    /// The entity's stored attributes and relationships, sorted by name: bit `i` of
    /// `ZCOLUMNS` (byte `i / 8`, least significant bit first) stands for the `i`-th.
    let properties: [String]
    /// The attributes kept in a deletion's tombstone, sorted by name: `ZTOMBSTONE<i>` holds the `i`-th.
    let tombstoneAttributes: [AttributeDescription]

    init(_ entity: EntitySchema) {
        properties =
            (entity.attributes.filter { !$0.isTransient }.map(\.name)
            + entity.relationships.filter { !$0.isTransient }.map(\.name)).sorted()
        tombstoneAttributes = StoreChangeSet.tombstoneAttributes(of: entity)
    }

    /// The `ZCOLUMNS` bit mask of `keys`.
    func columns(_ keys: Set<String>) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: (properties.count + 7) / 8)
        for (index, name) in properties.enumerated() where keys.contains(name) {
            bytes[index / 8] |= 1 << UInt8(index % 8)
        }
        return bytes
    }

    /// The names the bit mask `bytes` stands for; bits past the entity's properties are ignored.
    func keys(inColumns bytes: [UInt8]) -> Set<String> {
        var keys: Set<String> = []
        for (index, name) in properties.enumerated() where index / 8 < bytes.count {
            if bytes[index / 8] & (1 << UInt8(index % 8)) != 0 { keys.insert(name) }
        }
        return keys
    }
}
