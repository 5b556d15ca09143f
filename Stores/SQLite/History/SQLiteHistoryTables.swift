import Strata

/// Core Data's persistent-history tables, as Apple's framework creates them: transactions,
/// their changes and the strings transactions intern, numbered 16002, 16001 and 16003 in
/// `Z_PRIMARYKEY`, whose `Z_MAX` hands out their primary keys (docs/HISTORY.md).
enum SQLiteHistoryTables {
    static let changeEntity: Int64 = 16001
    static let transactionEntity: Int64 = 16002
    static let stringEntity: Int64 = 16003

    /// The statements creating the tables and indexes, in Apple's text.
    static let createStatements = [
        "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, "
            + "ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, "
            + "ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
        "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
        "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
        "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
        "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
        "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)",
        "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
        "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, "
            + "ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB )",
        "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
        "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)",
    ]

    /// Whether the file on `connection` has the history tables.
    static func exist(on connection: SQLiteConnection) throws -> Bool {
        let rows = try connection.cachedStatement(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('ATRANSACTION', 'ACHANGE', "
                + "'ATRANSACTIONSTRING')"
        ).rows([]) { $0.value(at: 0) }
        return rows.first == .integer(3)
    }

    /// Creates the tables, their indexes and their `Z_PRIMARYKEY` rows, inside the caller's
    /// transaction, unless the file has them.
    static func create(on connection: SQLiteConnection) throws {
        guard try !exist(on: connection) else { return }
        for statement in createStatements { try connection.execute(script: statement) }
        let insert = try connection.statement(
            "INSERT OR IGNORE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)")
        let rows = [(changeEntity, "CHANGE"), (transactionEntity, "TRANSACTION"), (stringEntity, "TRANSACTIONSTRING")]
        for (number, name) in rows {
            try insert.execute([.integer(number), .text(name)])
        }
    }

    /// The names of the tombstone columns `ACHANGE` has (`ZTOMBSTONE0`, `ZTOMBSTONE1`, …), in order.
    static func tombstoneColumns(on connection: SQLiteConnection) throws -> [String] {
        let names = try connection.cachedStatement("SELECT name FROM pragma_table_info('ACHANGE')").rows([]) {
            $0.value(at: 0)
        }
        let count = names.filter { if case .text(let name) = $0 { name.hasPrefix("ZTOMBSTONE") } else { false } }.count
        return (0..<count).map { "ZTOMBSTONE\($0)" }
    }

    /// Adds tombstone columns to `ACHANGE` until it has `count`.
    static func ensureTombstoneColumns(_ count: Int, on connection: SQLiteConnection) throws -> [String] {
        var columns = try tombstoneColumns(on: connection)
        while columns.count < count {
            let name = "ZTOMBSTONE\(columns.count)"
            try connection.execute(script: "ALTER TABLE ACHANGE ADD COLUMN \(name)")
            columns.append(name)
        }
        return columns
    }

    /// Hands out `count` primary keys of the history entity `number`; returns the first.
    static func reserveKeys(_ count: Int, of number: Int64, on connection: SQLiteConnection) throws -> Int64 {
        let maxima = try connection.cachedStatement(
            "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ? RETURNING Z_MAX"
        ).rows([.integer(Int64(count)), .integer(number)]) { $0.value(at: 0) }
        guard case .integer(let maximum)? = maxima.first else {
            throw StoreError(
                code: .corrupt,
                message: "The store has no Z_PRIMARYKEY row for history entity \(number), or its Z_MAX cannot count "
                    + "\(count) further.")
        }
        return try StoredCounter.adding(
            1, to: maximum &- Int64(count), "The Z_PRIMARYKEY.Z_MAX of history entity \(number)")
    }
}
