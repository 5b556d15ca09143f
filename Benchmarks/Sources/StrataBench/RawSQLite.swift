import CBenchSQLite
import Foundation

/// Failures of a raw floor, naming what failed.
struct FloorError: Error, CustomStringConvertible {
    var description: String
}

/// A thin handle on one SQLite connection for the raw floor: the C API, prepared statements
/// and nothing else.
final class RawSQLiteConnection {
    private var db: OpaquePointer?

    init(path: String) throws {
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw FloorError(description: "cannot open \(path)") }
        try execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")
    }

    deinit { sqlite3_close_v2(db) }

    func execute(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw FloorError(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
    }

    func prepare(_ sql: String) throws -> RawSQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw FloorError(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        return RawSQLiteStatement(statement)
    }
}

/// One prepared statement, finalized when released.
final class RawSQLiteStatement {
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { sqlite3_finalize(handle) }

    /// Steps once; `true` while a row is available.
    func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw FloorError(description: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))))
        }
    }

    func reset() { sqlite3_reset(handle) }

    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(handle, index, value) }

    func bind(_ index: Int32, _ value: Double) { sqlite3_bind_double(handle, index, value) }

    func bind(_ index: Int32, _ value: String) {
        sqlite3_bind_text(handle, index, value, -1, bench_sqlite_transient())
    }

    func bind(_ index: Int32, _ value: [UInt8]) {
        _ = value.withUnsafeBytes {
            sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), bench_sqlite_transient())
        }
    }

    func bindNull(_ index: Int32) { sqlite3_bind_null(handle, index) }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    func string(_ column: Int32) -> String { String(cString: sqlite3_column_text(handle, column)) }

    func bytes(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard let base = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// The item in the current row of `SELECT id, number, name, score, stamp, flag, blob, parent`.
    func item() -> ItemRecord {
        ItemRecord(
            id: int64(0), number: int64(1), name: string(2), score: double(3), stamp: double(4), flag: int64(5) != 0,
            blob: bytes(6), parent: sqlite3_column_type(handle, 7) == SQLITE_NULL ? nil : int64(7), children: [])
    }
}

/// The SQLite floor: the same workloads written directly against the C API, in one table with
/// an index on `number` and one on `parent`, WAL and `synchronous=NORMAL`, one transaction per write.
final class RawSQLite: BenchSubject {
    static let columns = "id, number, name, score, stamp, flag, blob, parent"

    let store = "SQLite"
    let data: BenchData
    let records: [ItemRecord]
    let scratch: ScratchDirectory
    let full: URL

    init(data: BenchData, records: [ItemRecord]) throws {
        self.data = data
        self.records = records
        let scratch = try ScratchDirectory("raw-sqlite")
        self.scratch = scratch
        full = try scratch.fresh("full")
        try insertAll(try RawSQLiteConnection(path: path(full)))
    }

    func path(_ folder: URL) -> String { folder.appendingPathComponent("items.sqlite").path }

    func time(_ workload: Workload) throws -> Duration? {
        switch workload {
        case .insert:
            let folder = try scratch.fresh("insert")
            return try clock { try insertAll(try RawSQLiteConnection(path: path(folder))) }
        case .fetchAll:
            return try clock { consume(try Self.select("SELECT \(Self.columns) FROM item", path: path(full))) }
        case .fetchIndexed:
            return try clock {
                consume(
                    try Self.select(
                        "SELECT \(Self.columns) FROM item WHERE number < \(data.indexedBound)", path: path(full)))
            }
        case .loadByID:
            let connection = try RawSQLiteConnection(path: path(full))
            return try clock { consume(try load(data.touchedIDs, connection)) }
        case .traverse:
            let connection = try RawSQLiteConnection(path: path(full))
            return try clock { consume(try traverse(connection)) }
        case .update:
            let connection = try RawSQLiteConnection(path: path(try scratch.copy(full, as: "changed")))
            return try clock { try write("UPDATE item SET score = -1 WHERE id = ?", connection) }
        case .delete:
            let connection = try RawSQLiteConnection(path: path(try scratch.copy(full, as: "changed")))
            return try clock { try write("DELETE FROM item WHERE id = ?", connection) }
        case .openCount:
            return try clock {
                let statement = try RawSQLiteConnection(path: path(full)).prepare("SELECT count(*) FROM item")
                _ = try statement.step()
                consume(statement.int64(0))
            }
        case .migrate:
            let connection = try RawSQLiteConnection(path: path(try scratch.copy(full, as: "migrated")))
            return try clock {
                try connection.execute(
                    """
                    BEGIN; ALTER TABLE item RENAME COLUMN name TO title; ALTER TABLE item ADD COLUMN rank INTEGER;
                    UPDATE item SET rank = 0; COMMIT;
                    """)
            }
        case .batchUpdate, .batchDelete, .batchCompute:
            let connection = try RawSQLiteConnection(path: path(try scratch.copy(full, as: "changed")))
            // The same durability as the Strata store: the commit waits for the disk.
            try connection.execute("PRAGMA synchronous=FULL;")
            let sql =
                switch workload {
                case .batchUpdate: "UPDATE item SET score = -1"
                case .batchCompute: "UPDATE item SET score = score * 2 + number"
                default: "DELETE FROM item"
                }
            return try clock { try connection.execute("BEGIN; \(sql); COMMIT;") }
        case .saveSmall:
            let connection = try RawSQLiteConnection(path: path(try scratch.fresh("small")))
            // The same durability as the Strata store: the commit waits for the disk.
            try connection.execute("PRAGMA synchronous=FULL;")
            try connection.execute(Self.schema)
            let insert = try connection.prepare("INSERT INTO item (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            let pairs = StripedSaves.pairs(of: records)
            return try clock {
                for pair in pairs {
                    try connection.execute("BEGIN;")
                    for record in pair { try Self.insert(record, with: insert) }
                    try connection.execute("COMMIT;")
                }
            }
        case .convert, .memory, .insertHistory, .updateHistory, .deleteHistory, .fetchIndexedTyped, .readTyped,
            .saveStriped, .fetchIndexedObserved, .saveSmallObserved:
            return nil
        }
    }

    static let schema = """
        CREATE TABLE item (id INTEGER PRIMARY KEY, number INTEGER, name TEXT, score REAL, stamp REAL,
            flag INTEGER, blob BLOB, parent INTEGER);
        CREATE INDEX item_number ON item (number);
        CREATE INDEX item_parent ON item (parent);
        """

    func insertAll(_ connection: RawSQLiteConnection) throws {
        try connection.execute(Self.schema + "BEGIN;")
        let insert = try connection.prepare("INSERT INTO item (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        for record in records { try Self.insert(record, with: insert) }
        try connection.execute("COMMIT")
    }

    /// Inserts `record` with the prepared `INSERT INTO item (columns)`.
    static func insert(_ record: ItemRecord, with insert: RawSQLiteStatement) throws {
        insert.bind(1, record.id)
        insert.bind(2, record.number)
        insert.bind(3, record.name)
        insert.bind(4, record.score)
        insert.bind(5, record.stamp)
        insert.bind(6, Int64(record.flag ? 1 : 0))
        insert.bind(7, record.blob)
        if let parent = record.parent { insert.bind(8, parent) } else { insert.bindNull(8) }
        _ = try insert.step()
        insert.reset()
    }

    /// Every item `sql` selects, from a new connection on the database at `path`.
    static func select(_ sql: String, path: String) throws -> [ItemRecord] {
        let statement = try RawSQLiteConnection(path: path).prepare(sql)
        var items: [ItemRecord] = []
        while try statement.step() { items.append(statement.item()) }
        return items
    }

    private func load(_ ids: [Int64], _ connection: RawSQLiteConnection) throws -> [ItemRecord] {
        let statement = try connection.prepare("SELECT \(Self.columns) FROM item WHERE id = ?")
        return try ids.map { id in
            statement.bind(1, id)
            defer { statement.reset() }
            guard try statement.step() else { throw FloorError(description: "no item \(id)") }
            return statement.item()
        }
    }

    private func traverse(_ connection: RawSQLiteConnection) throws -> Int {
        let parents = try connection.prepare("SELECT id FROM item WHERE number < \(data.traversedParents)")
        let children = try connection.prepare("SELECT name FROM item WHERE parent = ?")
        var sum = 0
        while try parents.step() {
            children.bind(1, parents.int64(0))
            while try children.step() { sum &+= children.string(0).utf8.count }
            children.reset()
        }
        return sum
    }

    private func write(_ sql: String, _ connection: RawSQLiteConnection) throws {
        try connection.execute("BEGIN")
        let statement = try connection.prepare(sql)
        for id in data.touchedIDs {
            statement.bind(1, id)
            _ = try statement.step()
            statement.reset()
        }
        try connection.execute("COMMIT")
    }
}
