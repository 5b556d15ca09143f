import CStrataLMDB
import Foundation
@_spi(StoreAuthoring) import Strata

/// The named databases of a Strata LMDB store, their keys, and the encoding of its records
/// (docs/LMDB.md).
struct LMDBLayout: Sendable {
    /// The version of the layout this build writes and the newest it reads.
    static let formatVersion: UInt32 = 1

    /// Format version, metadata and coding tables, by key.
    static let metaDatabase = "strata.meta"
    /// The next primary key of each root entity, by root entity name.
    static let counterDatabase = "strata.counters"
    /// The members of each to-many relationship, by relationship and source object.
    static let toManyDatabase = "strata.tomany"
    /// Every secondary index: indexed attributes and to-one references.
    static let indexDatabase = "strata.index"
    /// The records of the root entity `root` and its sub-entities, by primary key.
    static func recordDatabase(root: String) -> String { "strata.records." + root }

    /// The meta key of the format version (4 bytes, big-endian).
    static let formatKey = Array("format".utf8)
    /// The meta key of the store's metadata record.
    static let metadataKey = Array("metadata".utf8)
    /// The meta key of the entity-name table.
    static let entitiesKey = Array("entities".utf8)
    /// The meta key of the property-name table.
    static let propertiesKey = Array("properties".utf8)
    /// The meta key of the index set the index database has entries for
    /// (``LMDBIndexes/signature``); files written before it was recorded lack it.
    static let indexesKey = Array("indexes".utf8)
    /// Every key the meta database may hold.
    static let metaKeys: Set<[UInt8]> = [
        formatKey, metadataKey, entitiesKey, propertiesKey, indexesKey, LMDBHistoryLayout.countersKey,
    ]

    /// The tables the records are coded with: the store's identifier, the entity names and
    /// the property names recorded in the file.
    let context: BinaryCodingContext
    /// Where messages say records come from, such as `"'/tmp/a.lmdb'"`.
    let source: String
    /// The model's entity for each name of the coding table, by entity number; `nil` for names
    /// the model no longer has.
    let entities: [EntitySchema?]

    /// The tables a new store records for `schema`: entity and property names in name order.
    static func tables(for schema: ModelSchema) -> (entities: [String], properties: [String]) {
        let entities = schema.entities.map(\.name).sorted()
        let properties = Set(schema.entities.flatMap { $0.attributes.map(\.name) + $0.relationships.map(\.name) })
        return (entities, properties.sorted())
    }

    /// A record of names, for the entity and property tables.
    static func encode(names: [String]) -> [UInt8] {
        BinaryRecord.encode { writer in
            writer.write(count: names.count)
            for name in names { writer.write(string: name) }
        }
    }

    /// The names in a record ``encode(names:)`` made.
    static func decodeNames(_ bytes: [UInt8], source: String) throws -> [String] {
        try BinaryRecord.decode(bytes, source: source) { reader in
            try (0..<reader.readCount("the number of names")).map { _ in try reader.readString("a name") }
        }
    }

    /// The bytes of a primary key: 8 bytes, big-endian, so keys sort by number.
    static func key(_ primaryKey: Int64) -> [UInt8] {
        withUnsafeBytes(of: UInt64(bitPattern: primaryKey).bigEndian) { Array($0) }
    }

    /// The primary key in `bytes` made by ``key(_:)``.
    static func primaryKey(_ bytes: some Collection<UInt8>) -> Int64 {
        Int64(bitPattern: bytes.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }

    /// The prefix of every key of one relationship or index: `Entity.property` and a zero byte.
    static func prefix(entity: String, property: String) -> [UInt8] {
        Array("\(entity).\(property)".utf8) + [0]
    }

    /// The integer reference of `objectID`, which every object of an LMDB store has.
    static func primaryKey(of objectID: ObjectID) -> Int64? {
        guard case .integer(let number) = objectID.reference else { return nil }
        return number
    }

    /// The record of `snapshot`: its entity's number in the entity table, then the snapshot.
    func encode(_ snapshot: Snapshot) -> [UInt8] {
        let number = context.entityIndexes[snapshot.objectID.entityName] ?? 0
        return BinaryRecord.encode(context: context) { writer in
            writer.write(count: number)
            writer.write(snapshot: snapshot)
        }
    }

    /// The snapshot in the record `bytes` stored under `primaryKey` of `root`.
    func decode(_ bytes: [UInt8], primaryKey: Int64, root: String) throws -> Snapshot {
        let what = "\(source), record \(primaryKey) of \(root)"
        return try BinaryRecord.decode(bytes, source: what, context: context) { reader in
            let start = reader.offset
            let number = try reader.readIndex("the entity number", count: context.entityNames.count)
            let snapshot = try reader.readSnapshot("the object", slotsOf: entities[number])
            guard context.entityNames[number] == snapshot.objectID.entityName,
                Self.primaryKey(of: snapshot.objectID) == primaryKey
            else { throw reader.corrupt("the record does not match its key and entity number", at: start) }
            return snapshot
        }
    }

    /// The entity name of the record `bytes`, read from its entity number without decoding
    /// the rest.
    func entityName(ofRecord bytes: UnsafeRawBufferPointer, primaryKey: Int64) throws -> String {
        var reader = BinaryReader(Array(bytes.prefix(6)), from: 1, source: "\(source), record \(primaryKey)")
        return context.entityNames[try reader.readIndex("the entity number", count: context.entityNames.count)]
    }

    /// The record of a to-many relationship's members.
    func encode(members: [ObjectID]) -> [UInt8] {
        BinaryRecord.encode(context: context) { writer in
            writer.write(count: members.count)
            for member in members { writer.write(objectID: member) }
        }
    }

    /// The members in a record ``encode(members:)`` made.
    func decodeMembers(_ bytes: [UInt8], of what: String) throws -> [ObjectID] {
        try BinaryRecord.decode(bytes, source: "\(source), \(what)", context: context) { reader in
            try (0..<reader.readCount("the number of members")).map { _ in try reader.readObjectID("a member") }
        }
    }
}

/// The handles of a store's named databases, valid for the life of its environment.
struct LMDBDatabases: Sendable {
    let meta: MDB_dbi
    let counters: MDB_dbi
    let toMany: MDB_dbi
    let index: MDB_dbi
    /// The records of each root entity, by root entity name.
    let records: [String: MDB_dbi]
    /// The persistent history's databases, when the file has them.
    var history: LMDBHistoryLayout?
}
