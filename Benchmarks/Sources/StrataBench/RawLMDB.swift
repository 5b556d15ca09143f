import CBenchLMDB
import Foundation
import Strata

/// The LMDB floor: the workloads written against the C API, with the LMDB store's record codec,
/// a database of records by ID, one of to-many member lists by parent and an index of `number`.
final class RawLMDB: BenchSubject {
    let store = "LMDB"
    let data: BenchData
    let records: [ItemRecord]
    let codec = RecordCodec()
    let scratch: ScratchDirectory
    let full: URL

    init(data: BenchData, records: [ItemRecord]) throws {
        self.data = data
        self.records = records
        let scratch = try ScratchDirectory("raw-lmdb")
        self.scratch = scratch
        full = try scratch.fresh("full")
        try insertAll(records, into: try environment(full))
    }

    func environment(_ folder: URL) throws -> RawLMDBEnvironment {
        try RawLMDBEnvironment(path: folder.appendingPathComponent("items.lmdb").path)
    }

    func time(_ workload: Workload) throws -> Duration? {
        switch workload {
        case .insert:
            let folder = try scratch.fresh("insert")
            return try clock { try insertAll(records, into: try environment(folder)) }
        case .fetchAll: return try clock { consume(try Self.readAll(from: try environment(full))) }
        case .fetchIndexed: return try clock { consume(try fetchIndexed(try environment(full))) }
        case .loadByID:
            let environment = try environment(full)
            return try clock { consume(try load(data.touchedIDs, environment)) }
        case .traverse:
            let environment = try environment(full)
            return try clock { consume(try traverse(environment)) }
        case .update:
            let environment = try environment(try scratch.copy(full, as: "changed"))
            return try clock { try update(environment) }
        case .delete:
            let environment = try environment(try scratch.copy(full, as: "changed"))
            return try clock { try delete(environment) }
        case .openCount:
            return try clock {
                consume(try environment(full).transaction(readOnly: true) { try $0.count(try $0.database("items")) })
            }
        case .migrate:
            let source = try environment(try scratch.copy(full, as: "migrated"))
            let folder = try scratch.fresh("migrated-copy")
            return try clock { try insertAll(try readItems(from: source), into: try environment(folder)) }
        case .saveSmall:
            let environment = try environment(try scratch.fresh("small"))
            let pairs = StripedSaves.pairs(of: records)
            return try clock { for pair in pairs { try insertAll(Array(pair), into: environment) } }
        case .convert, .memory, .insertHistory, .updateHistory, .deleteHistory, .batchUpdate, .batchDelete,
            .batchCompute, .fetchIndexedTyped, .readTyped, .saveStriped, .fetchIndexedObserved, .saveSmallObserved:
            return nil
        }
    }

    /// The index key of an item: its number with the sign bit flipped, then its ID.
    func indexKey(number: Int64, id: Int64) -> [UInt8] {
        RecordCodec.key(Int64(bitPattern: UInt64(bitPattern: number) ^ (1 << 63))) + RecordCodec.key(id)
    }

    func insertAll(_ records: [ItemRecord], into environment: RawLMDBEnvironment) throws {
        try environment.transaction(readOnly: false) { transaction in
            let items = try transaction.database("items")
            let children = try transaction.database("children")
            let index = try transaction.database("number")
            for record in records {
                try transaction.put(items, RecordCodec.key(record.id), codec.encode(codec.snapshot(record)))
                try transaction.put(index, indexKey(number: record.number, id: record.id), [])
                if !record.children.isEmpty {
                    try transaction.put(children, RecordCodec.key(record.id), codec.encode(members: record.children))
                }
            }
        }
    }

    /// Every item with its children, read back from the records.
    func readItems(from environment: RawLMDBEnvironment) throws -> [ItemRecord] {
        try environment.transaction(readOnly: true) { transaction in
            let children = try transaction.database("children")
            var items: [ItemRecord] = []
            try transaction.scan(try transaction.database("items"), from: []) { key, value in
                let snapshot = try codec.decode(value)
                let members = try transaction.get(children, key).map(codec.decodeMembers) ?? []
                items.append(codec.record(snapshot, children: members))
                return true
            }
            return items
        }
    }

    /// Every record of the store in `environment`, decoded.
    static func readAll(from environment: RawLMDBEnvironment, codec: RecordCodec = RecordCodec()) throws -> [Snapshot] {
        try environment.transaction(readOnly: true) { transaction in
            var snapshots: [Snapshot] = []
            try transaction.scan(try transaction.database("items"), from: []) { _, value in
                snapshots.append(try codec.decode(value))
                return true
            }
            return snapshots
        }
    }

    private func fetchIndexed(_ environment: RawLMDBEnvironment) throws -> [Snapshot] {
        try environment.transaction(readOnly: true) { transaction in
            let items = try transaction.database("items")
            let end = indexKey(number: data.indexedBound, id: 0)
            var snapshots: [Snapshot] = []
            try transaction.scan(try transaction.database("number"), from: indexKey(number: 0, id: 0)) { key, _ in
                guard key.lexicographicallyPrecedes(end) else { return false }
                if let bytes = try transaction.get(items, Array(key.suffix(8))) {
                    snapshots.append(try codec.decode(bytes))
                }
                return true
            }
            return snapshots
        }
    }

    private func load(_ ids: [Int64], _ environment: RawLMDBEnvironment) throws -> [Snapshot] {
        try environment.transaction(readOnly: true) { transaction in
            let items = try transaction.database("items")
            return try ids.compactMap { id in try transaction.get(items, RecordCodec.key(id)).map(codec.decode) }
        }
    }

    private func traverse(_ environment: RawLMDBEnvironment) throws -> Int {
        try environment.transaction(readOnly: true) { transaction in
            let items = try transaction.database("items")
            let children = try transaction.database("children")
            var sum = 0
            for parent in 1...Int64(data.traversedParents) {
                guard let members = try transaction.get(children, RecordCodec.key(parent)) else { continue }
                for member in try codec.decodeMembers(members) {
                    guard case .integer(let id) = member.reference,
                        let bytes = try transaction.get(items, RecordCodec.key(id)),
                        case .string(let name) = try codec.decode(bytes).values["name"]
                    else { continue }
                    sum &+= name.utf8.count
                }
            }
            return sum
        }
    }

    private func update(_ environment: RawLMDBEnvironment) throws {
        try environment.transaction(readOnly: false) { transaction in
            let items = try transaction.database("items")
            for id in data.touchedIDs {
                guard let bytes = try transaction.get(items, RecordCodec.key(id)) else { continue }
                var snapshot = try codec.decode(bytes)
                snapshot.values["score"] = .double(-1)
                snapshot.version += 1
                try transaction.put(items, RecordCodec.key(id), codec.encode(snapshot))
            }
        }
    }

    private func delete(_ environment: RawLMDBEnvironment) throws {
        try environment.transaction(readOnly: false) { transaction in
            let items = try transaction.database("items")
            let children = try transaction.database("children")
            let index = try transaction.database("number")
            for id in data.touchedIDs {
                guard let bytes = try transaction.get(items, RecordCodec.key(id)),
                    case .integer64(let number) = try codec.decode(bytes).values["number"]
                else { continue }
                try transaction.delete(items, RecordCodec.key(id))
                try transaction.delete(index, indexKey(number: number, id: id))
                try transaction.delete(children, RecordCodec.key(id))
            }
        }
    }
}
