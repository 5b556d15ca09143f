import Foundation

/// The PostgreSQL floor: the same workloads written directly against libpq on the same server,
/// in one table with an index on `number` and one on `parent`, prepared statements, values in
/// the binary format, one transaction per write.
final class RawPostgres: BenchSubject {
    static let columns = "id, number, name, score, stamp, flag, blob, parent"

    let store = "PostgreSQL"
    let data: BenchData
    let records: [ItemRecord]
    let scratch: ScratchDirectory
    let full: URL
    private let server: URL

    init(data: BenchData, records: [ItemRecord]) throws {
        self.data = data
        self.records = records
        server = try PostgresPlaces.server()
        let scratch = try ScratchDirectory("raw-postgres")
        self.scratch = scratch
        full = try scratch.fresh("full")
        try insertAll(in: full)
        try RawPostgresConnection(url: server).execute("ANALYZE")
    }

    /// The item table of `folder`'s schema.
    static func table(_ folder: URL) -> String { PostgresPlaces.schema(of: folder) + ".item" }

    func time(_ workload: Workload) throws -> Duration? {
        switch workload {
        case .insert:
            let folder = try scratch.fresh("insert")
            try PostgresPlaces.drop(folder)
            return try clock { try insertAll(in: folder) }
        case .fetchAll:
            return try clock { consume(try Self.select("SELECT \(Self.columns) FROM \(Self.table(full))", server)) }
        case .fetchIndexed:
            return try clock {
                consume(
                    try Self.select(
                        "SELECT \(Self.columns) FROM \(Self.table(full)) WHERE number < \(data.indexedBound)", server))
            }
        case .loadByID:
            let connection = try RawPostgresConnection(url: server)
            try connection.prepare("load", "SELECT \(Self.columns) FROM \(Self.table(full)) WHERE id = $1")
            return try clock {
                consume(
                    try data.touchedIDs.map { id in
                        let rows = try connection.run("load", [RawPostgresConnection.int8(id)])
                        guard rows.count == 1 else { throw FloorError(description: "no item \(id)") }
                        return rows.item(0)
                    })
            }
        case .traverse:
            let connection = try RawPostgresConnection(url: server)
            try connection.prepare("parents", "SELECT id FROM \(Self.table(full)) WHERE number < $1")
            try connection.prepare("children", "SELECT name FROM \(Self.table(full)) WHERE parent = $1")
            return try clock { consume(try traverse(connection)) }
        case .update: return try change("UPDATE %@ SET score = -1 WHERE id = $1")
        case .delete: return try change("DELETE FROM %@ WHERE id = $1")
        case .openCount:
            return try clock {
                let connection = try RawPostgresConnection(url: server)
                try connection.prepare("count", "SELECT count(*) FROM \(Self.table(full))")
                consume(try connection.run("count").int64(0, 0))
            }
        case .batchUpdate, .batchDelete, .batchCompute:
            let copy = try scratch.fresh("changed")
            try PostgresPlaces.copy(full, to: copy)
            let connection = try RawPostgresConnection(url: server)
            let sql =
                switch workload {
                case .batchUpdate: "UPDATE \(Self.table(copy)) SET score = -1"
                case .batchCompute: "UPDATE \(Self.table(copy)) SET score = score * 2 + number"
                default: "DELETE FROM \(Self.table(copy))"
                }
            return try clock { try connection.execute("BEGIN; \(sql); COMMIT") }
        case .convert, .memory, .insertHistory, .updateHistory, .deleteHistory, .fetchIndexedTyped, .readTyped,
            .migrate, .saveSmall, .saveStriped, .fetchIndexedObserved, .saveSmallObserved:
            return nil
        }
    }

    private func insertAll(in folder: URL) throws {
        let connection = try RawPostgresConnection(url: server)
        let schema = PostgresPlaces.schema(of: folder)
        let table = Self.table(folder)
        try connection.execute(
            """
            CREATE SCHEMA \(schema);
            CREATE TABLE \(table) (id int8 PRIMARY KEY, number int8, name text, score float8, stamp float8,
                flag bool, blob bytea, parent int8);
            CREATE INDEX ON \(table) (number);
            CREATE INDEX ON \(table) (parent);
            BEGIN
            """)
        try connection.prepare(
            "insert", "INSERT INTO \(table) (\(Self.columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)")
        for record in records {
            _ = try connection.run(
                "insert",
                [
                    RawPostgresConnection.int8(record.id), RawPostgresConnection.int8(record.number),
                    Array(record.name.utf8), RawPostgresConnection.float8(record.score),
                    RawPostgresConnection.float8(record.stamp), [record.flag ? 1 : 0], record.blob,
                    record.parent.map(RawPostgresConnection.int8),
                ])
        }
        try connection.execute("COMMIT")
    }

    /// Every item `sql` selects, on a new connection.
    static func select(_ sql: String, _ server: URL) throws -> [ItemRecord] {
        let connection = try RawPostgresConnection(url: server)
        try connection.prepare("select", sql)
        let rows = try connection.run("select")
        return (0..<rows.count).map(rows.item)
    }

    private func traverse(_ connection: RawPostgresConnection) throws -> Int {
        let parents = try connection.run("parents", [RawPostgresConnection.int8(Int64(data.traversedParents))])
        var sum = 0
        for row in 0..<parents.count {
            let children = try connection.run("children", [RawPostgresConnection.int8(parents.int64(row, 0))])
            for child in 0..<children.count { sum &+= children.string(child, 0).utf8.count }
        }
        return sum
    }

    /// Runs `sql` (its table written `%@`) for each touched item of a fresh copy of the full
    /// table, in one transaction.
    private func change(_ sql: String) throws -> Duration {
        let copy = try scratch.fresh("changed")
        try PostgresPlaces.copy(full, to: copy)
        let connection = try RawPostgresConnection(url: server)
        try connection.prepare("change", sql.replacingOccurrences(of: "%@", with: Self.table(copy)))
        return try clock {
            try connection.execute("BEGIN")
            for id in data.touchedIDs { _ = try connection.run("change", [RawPostgresConnection.int8(id)]) }
            try connection.execute("COMMIT")
        }
    }
}
