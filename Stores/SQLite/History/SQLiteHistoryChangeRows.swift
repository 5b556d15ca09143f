import Strata

/// The `ACHANGE` rows of one transaction, written in statements of ``batchRowCount`` rows:
/// one statement per row would cost more than the rows themselves.
struct SQLiteHistoryChangeRows {
    /// How many rows one batch statement inserts.
    static let batchRowCount = 128
    private static let columns =
        "INSERT INTO ACHANGE (Z_PK, Z_ENT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS"
    private static let row = "(?, \(SQLiteHistoryTables.changeEntity), ?, ?, ?, ?, ?)"
    /// The statement inserting a full batch.
    private static let batchStatement =
        columns + ") VALUES " + Array(repeating: row, count: batchRowCount).joined(separator: ", ")

    let transaction: Int64
    private var nextKey: Int64
    /// The values of the rows without tombstones, six per row.
    private var values: [SQLiteValue] = []
    /// The rows with tombstones: their six values and their tombstone's.
    private var tombstoneRows: [(values: [SQLiteValue], tombstone: [SQLiteValue])] = []

    /// Rows for a transaction numbered `transaction` whose `count` changes have the keys from `firstKey` on.
    init(transaction: Int64, firstKey: Int64, count: Int) {
        self.transaction = transaction
        nextKey = firstKey
        values.reserveCapacity(count * 6)
    }

    /// Adds the change of `objectID`, its key the next of those reserved.
    mutating func append(
        _ objectID: ObjectID, _ type: PersistentHistoryChange.ChangeType, columns: SQLiteValue = .null,
        tombstone: [AttributeValue] = [], store: SQLiteStore
    ) throws {
        guard let number = store.layout.entityNumbers[objectID.entityName] else {
            throw StoreError(
                code: .unknownEntity,
                message: "\(store.storeName) has no entity number for \(objectID) to record in its history.")
        }
        let key = try store.primaryKey(of: objectID)
        // Keys run up to the Z_MAX SQLite returned as an integer; only the last can wrap, unused.
        defer { nextKey &+= 1 }
        guard tombstone.isEmpty else {
            let row: [SQLiteValue] = [
                .integer(nextKey), .integer(Int64(type.rawValue)), .integer(number), .integer(key),
                .integer(transaction), columns,
            ]
            tombstoneRows.append((row, tombstone.map(SQLiteValueCodec.encode)))
            return
        }
        values.append(.integer(nextKey))
        values.append(.integer(Int64(type.rawValue)))
        values.append(.integer(number))
        values.append(.integer(key))
        values.append(.integer(transaction))
        values.append(columns)
    }

    /// Inserts the rows: full batches through one cached statement, the rest through one
    /// statement, and each row with a tombstone on its own (adding tombstone columns first).
    func write(on connection: SQLiteConnection) throws {
        let width = 6
        let batchWidth = Self.batchRowCount * width
        var start = 0
        while values.count - start >= batchWidth {
            try connection.cachedStatement(Self.batchStatement).execute(Array(values[start..<start + batchWidth]))
            start += batchWidth
        }
        if start < values.count {
            let count = (values.count - start) / width
            let sql = Self.columns + ") VALUES " + Array(repeating: Self.row, count: count).joined(separator: ", ")
            try connection.statement(sql).execute(Array(values[start...]))
        }
        guard let widest = tombstoneRows.map(\.tombstone.count).max() else { return }
        let names = try SQLiteHistoryTables.ensureTombstoneColumns(widest, on: connection)
        for (row, tombstone) in tombstoneRows {
            let sql =
                Self.columns + names.prefix(tombstone.count).map { ", \($0)" }.joined() + ") VALUES (?, "
                + "\(SQLiteHistoryTables.changeEntity), ?, ?, ?, ?, ?"
                + String(repeating: ", ?", count: tombstone.count)
                + ")"
            try connection.cachedStatement(sql).execute(row + tombstone)
        }
    }
}
