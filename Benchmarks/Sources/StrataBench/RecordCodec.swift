import Foundation
@_spi(StoreAuthoring) import Strata

/// Items as Strata snapshots and records in Strata's binary value codec (Sources/Strata/Codec),
/// coded as the LMDB store codes its records: the entity's number, then the snapshot.
struct RecordCodec {
    static let storeIdentifier = "BENCH-0000-0000-0000-000000000000"

    let context = BinaryCodingContext(
        homeStoreIdentifier: storeIdentifier, entityNames: [BenchModel.entity],
        propertyNames: ["blob", "children", "flag", "name", "number", "parent", "score", "stamp"])

    func objectID(_ id: Int64) -> ObjectID {
        ObjectID(storeIdentifier: Self.storeIdentifier, entityName: BenchModel.entity, reference: .integer(id))
    }

    func snapshot(_ record: ItemRecord) -> Snapshot {
        var values: [String: AttributeValue] = [
            "number": .integer64(record.number), "name": .string(record.name), "score": .double(record.score),
            "stamp": .date(Date(timeIntervalSinceReferenceDate: record.stamp)), "flag": .boolean(record.flag),
            "blob": .binary(Data(record.blob)),
        ]
        if let parent = record.parent { values["parent"] = .objectID(objectID(parent)) }
        return Snapshot(objectID: objectID(record.id), values: values, version: 1)
    }

    /// The item `snapshot` holds, with `children`.
    func record(_ snapshot: Snapshot, children: [ObjectID]) -> ItemRecord {
        func integer(_ id: ObjectID) -> Int64 {
            if case .integer(let number) = id.reference { return number }
            return 0
        }
        var record = ItemRecord(
            id: integer(snapshot.objectID), number: 0, name: "", score: 0, stamp: 0, flag: false, blob: [], parent: nil,
            children: children.map(integer))
        for (key, value) in snapshot.values {
            switch value {
            case .integer64(let number): record.number = number
            case .string(let name): record.name = name
            case .double(let score): record.score = score
            case .date(let date): record.stamp = date.timeIntervalSinceReferenceDate
            case .boolean(let flag): record.flag = flag
            case .binary(let blob): record.blob = [UInt8](blob)
            case .objectID(let parent) where key == "parent": record.parent = integer(parent)
            default: break
            }
        }
        return record
    }

    func encode(_ snapshot: Snapshot) -> [UInt8] {
        BinaryRecord.encode(context: context) { writer in
            writer.write(count: 0)
            writer.write(snapshot: snapshot)
        }
    }

    func decode(_ bytes: [UInt8]) throws -> Snapshot {
        try BinaryRecord.decode(bytes, source: "a raw record", context: context) { reader in
            _ = try reader.readIndex("the entity number", count: 1)
            return try reader.readSnapshot("the object")
        }
    }

    func encode(members: [Int64]) -> [UInt8] {
        BinaryRecord.encode(context: context) { writer in
            writer.write(count: members.count)
            for member in members { writer.write(objectID: objectID(member)) }
        }
    }

    func decodeMembers(_ bytes: [UInt8]) throws -> [ObjectID] {
        try BinaryRecord.decode(bytes, source: "a raw member list", context: context) { reader in
            try (0..<reader.readCount("the number of members")).map { _ in try reader.readObjectID("a member") }
        }
    }

    /// The big-endian key of `id`, which keeps keys in number order.
    static func key(_ id: Int64) -> [UInt8] { withUnsafeBytes(of: UInt64(bitPattern: id).bigEndian) { Array($0) } }

    static func id(_ key: [UInt8]) -> Int64 {
        Int64(bitPattern: key.suffix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) })
    }
}
