import Foundation
import GRDB

/// An item as a GRDB record.
struct GRDBItem: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "item"

    var id: Int64
    var number: Int64
    var name: String
    var score: Double
    var stamp: Double
    var flag: Bool
    var blob: Data
    var parent: Int64?

    init(_ record: ItemRecord) {
        id = record.id
        number = record.number
        name = record.name
        score = record.score
        stamp = record.stamp
        flag = record.flag
        blob = Data(record.blob)
        parent = record.parent
    }
}

/// The peer: the SQLite workloads through GRDB's record API on a `DatabasePool` (WAL), with
/// the same table and indexes as the raw SQLite floor.
final class GRDBPeer: BenchSubject {
    let store = "SQLite"
    let data: BenchData
    let items: [GRDBItem]
    let scratch: ScratchDirectory
    let full: URL

    init(data: BenchData, records: [ItemRecord]) throws {
        self.data = data
        items = records.map(GRDBItem.init)
        let scratch = try ScratchDirectory("grdb")
        self.scratch = scratch
        full = try scratch.fresh("full")
        try insertAll(try pool(full))
    }

    /// The database's file name in its folder.
    static let fileName = "items.sqlite"

    func pool(_ folder: URL) throws -> DatabasePool {
        try DatabasePool(path: folder.appendingPathComponent(Self.fileName).path)
    }

    func time(_ workload: Workload) throws -> Duration? {
        switch workload {
        case .insert:
            let folder = try scratch.fresh("insert")
            return try clock { try insertAll(try pool(folder)) }
        case .fetchAll: return try clock { consume(try pool(full).read { try GRDBItem.fetchAll($0) }) }
        case .fetchIndexed:
            return try clock {
                consume(try pool(full).read { try GRDBItem.filter(Column("number") < data.indexedBound).fetchAll($0) })
            }
        case .loadByID:
            let pool = try pool(full)
            return try clock {
                consume(try pool.read { db in try data.touchedIDs.map { try GRDBItem.fetchOne(db, key: $0) } })
            }
        case .traverse:
            let pool = try pool(full)
            return try clock { consume(try pool.read(traverse)) }
        case .update:
            let pool = try pool(try scratch.copy(full, as: "changed"))
            return try clock {
                try pool.write { db in
                    for id in data.touchedIDs {
                        guard var item = try GRDBItem.fetchOne(db, key: id) else { continue }
                        item.score = -1
                        try item.update(db)
                    }
                }
            }
        case .delete:
            let pool = try pool(try scratch.copy(full, as: "changed"))
            return try clock {
                try pool.write { db in for id in data.touchedIDs { try GRDBItem.deleteOne(db, key: id) } }
            }
        case .openCount: return try clock { consume(try pool(full).read { try GRDBItem.fetchCount($0) }) }
        case .convert, .migrate, .memory, .insertHistory, .updateHistory, .deleteHistory, .batchUpdate, .batchDelete,
            .batchCompute, .fetchIndexedTyped, .readTyped, .saveSmall, .saveStriped, .fetchIndexedObserved,
            .saveSmallObserved:
            return nil
        }
    }

    private func insertAll(_ pool: DatabasePool) throws {
        try pool.write { db in
            try db.create(table: "item") { table in
                table.column("id", .integer).primaryKey()
                table.column("number", .integer).indexed()
                table.column("name", .text)
                table.column("score", .double)
                table.column("stamp", .double)
                table.column("flag", .boolean)
                table.column("blob", .blob)
                table.column("parent", .integer).indexed()
            }
            for item in items { try item.insert(db) }
        }
    }

    private func traverse(_ db: Database) throws -> Int {
        var sum = 0
        for parent in try GRDBItem.filter(Column("number") < data.traversedParents).fetchAll(db) {
            for child in try GRDBItem.filter(Column("parent") == parent.id).fetchAll(db) {
                sum &+= child.name.utf8.count
            }
        }
        return sum
    }
}
