import Foundation

@testable import StrataSQLite

/// What an SQLite file holds, table by table: its schema (every table and index with its SQL)
/// and the rows of each table, sorted, so that two files compare whatever order SQLite keeps
/// them in.
struct SQLiteFileContents: Equatable, CustomStringConvertible {
    /// `type name ON table: sql` for every table and index.
    let schema: Set<String>
    /// Each table's rows, each as its values in column order, sorted.
    let rows: [String: [String]]

    /// Reads the file at `url`, leaving out the rows of `skippedTables`.
    init(_ url: URL, skippingRowsOf skippedTables: Set<String> = ["Z_METADATA", "Z_MODELCACHE"]) throws {
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        let entries = try connection.statement("SELECT type, name, tbl_name, sql FROM sqlite_master").rows {
            ($0.value(at: 0), $0.value(at: 1), $0.value(at: 2), $0.value(at: 3))
        }
        var schema: Set<String> = []
        var rows: [String: [String]] = [:]
        for case (.text(let type), .text(let name), .text(let table), let sql) in entries {
            schema.insert("\(type) \(name) ON \(table): \(Self.text(sql))")
            guard type == "table", !skippedTables.contains(name) else { continue }
            let statement = try connection.statement("SELECT * FROM \(name)")
            rows[name] = try statement.rows { row in
                (0..<row.columnCount).map { Self.text(row.value(at: $0)) }.joined(separator: " | ")
            }.sorted()
        }
        self.schema = schema
        self.rows = rows
    }

    /// A value as `sqlite3` prints it, blobs in hexadecimal.
    static func text(_ value: SQLiteValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let number): "\(number)"
        case .real(let number): "\(number)"
        case .text(let text): text
        case .blob(let bytes): "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }

    var description: String {
        (schema.sorted() + rows.keys.sorted().map { "\($0): \(rows[$0] ?? [])" }).joined(separator: "\n")
    }
}

/// Where each table is listed in an SQLite file's schema: a table made anew gets a new row.
struct SQLiteSchemaEntries {
    let rowIDs: [String: Int64]

    init(_ url: URL) throws {
        let connection = try SQLiteConnection(path: url.path, mode: .readOnly)
        let rows = try connection.statement("SELECT name, rowid FROM sqlite_master WHERE type = 'table'").rows {
            ($0.value(at: 0), $0.value(at: 1))
        }
        var rowIDs: [String: Int64] = [:]
        for case (.text(let name), .integer(let rowID)) in rows { rowIDs[name] = rowID }
        self.rowIDs = rowIDs
    }
}

/// Changes an SQLite file behind Strata's back, as another program might.
enum SQLiteFileEditor {
    static func execute(_ sql: String, on url: URL) throws {
        try SQLiteConnection(path: url.path, mode: .readWrite).execute(script: sql)
    }
}
