import Foundation

/// The floor of a conversion: the source floor reads every item, the destination floor writes
/// them, with nothing in between but grouping children under their parents.
final class RawConversion: BenchSubject {
    let store: String
    private let body: () throws -> Duration

    init(store: String, _ body: @escaping () throws -> Duration) {
        self.store = store
        self.body = body
    }

    func time(_ workload: Workload) throws -> Duration? { workload == .convert ? try body() : nil }

    /// SQLite floor to LMDB floor.
    static func sqliteToLMDB(_ sqlite: RawSQLite, _ lmdb: RawLMDB) -> RawConversion {
        RawConversion(store: "SQLite") {
            let folder = try lmdb.scratch.fresh("converted")
            return try clock {
                var items = try RawSQLite.select(
                    "SELECT \(RawSQLite.columns) FROM item", path: sqlite.path(sqlite.full))
                var positions: [Int64: Int] = [:]
                for (index, item) in items.enumerated() { positions[item.id] = index }
                for item in items {
                    if let parent = item.parent, let index = positions[parent] { items[index].children.append(item.id) }
                }
                try lmdb.insertAll(items, into: try lmdb.environment(folder))
            }
        }
    }

    /// LMDB floor to binary floor.
    static func lmdbToBinary(_ lmdb: RawLMDB, _ binary: WholeFileFloor) -> RawConversion {
        RawConversion(store: "LMDB") {
            let url = try binary.scratch.fresh("converted").appendingPathComponent(binary.format.fileName)
            return try clock {
                try binary.format.write(try lmdb.readItems(from: try lmdb.environment(lmdb.full)), to: url)
            }
        }
    }
}
