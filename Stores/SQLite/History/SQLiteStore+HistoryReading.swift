import Foundation
import Strata

/// Reading and deleting the transactions of Core Data's history tables: Apple's, written by
/// Core Data, and Strata's alike.
extension SQLiteStore {
    public func historyTransactions(
        after bound: StoreHistoryBound, includingChanges: Bool
    ) throws -> [PersistentHistoryTransaction] {
        try read("reading its persistent history") { connection in
            guard try SQLiteHistoryTables.exist(on: connection) else { return [] }
            let (condition, parameter) = Self.transactionCondition(after: bound)
            let sql =
                "SELECT t.Z_PK, t.ZTIMESTAMP, coalesce(a.ZNAME, t.ZAUTHOR), coalesce(b.ZNAME, t.ZBUNDLEID), "
                + "coalesce(c.ZNAME, t.ZCONTEXTNAME), coalesce(p.ZNAME, t.ZPROCESSID) FROM ATRANSACTION t "
                + "LEFT JOIN ATRANSACTIONSTRING a ON a.Z_PK = t.ZAUTHORTS "
                + "LEFT JOIN ATRANSACTIONSTRING b ON b.Z_PK = t.ZBUNDLEIDTS "
                + "LEFT JOIN ATRANSACTIONSTRING c ON c.Z_PK = t.ZCONTEXTNAMETS "
                + "LEFT JOIN ATRANSACTIONSTRING p ON p.Z_PK = t.ZPROCESSIDTS "
                + "WHERE \(condition) ORDER BY t.Z_PK"
            var transactions = try connection.cachedStatement(sql).rowsThrowing([parameter]) { row in
                guard case .integer(let number) = row.value(at: 0) else {
                    throw StoreError(code: .corrupt, message: "\(storeName) has a history transaction without a key.")
                }
                guard case .date(let timestamp)? = SQLiteValueCodec.decode(row.value(at: 1), as: .date) else {
                    throw StoreError(
                        code: .corrupt,
                        message: "\(storeName) has no timestamp in ZTIMESTAMP of ATRANSACTION row \(number) (it holds "
                            + "\(row.value(at: 1))).")
                }
                func text(_ column: Int) -> String? {
                    guard case .string(let text)? = SQLiteValueCodec.decode(row.value(at: column), as: .string) else {
                        return nil
                    }
                    return text
                }
                return PersistentHistoryTransaction(
                    token: PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: number),
                    timestamp: timestamp, author: text(2), contextName: text(4), processIdentifier: text(5),
                    bundleIdentifier: text(3))
            }
            guard includingChanges, let first = transactions.first?.token.transactionNumber else {
                return transactions
            }
            let changes = try historyChanges(from: first, on: connection)
            for index in transactions.indices {
                transactions[index].changes = changes[transactions[index].token.transactionNumber] ?? []
            }
            return transactions
        }
    }

    public func deleteHistory(before bound: StoreHistoryBound) throws -> Int {
        try write("deleting its persistent history") { connection in
            guard try SQLiteHistoryTables.exist(on: connection) else { return 0 }
            let (condition, parameter) = Self.transactionCondition(before: bound)
            try connection.cachedStatement(
                "DELETE FROM ACHANGE WHERE ZTRANSACTIONID IN (SELECT t.Z_PK FROM ATRANSACTION t WHERE \(condition))"
            ).execute([parameter])
            try connection.cachedStatement("DELETE FROM ATRANSACTION AS t WHERE \(condition)").execute([parameter])
            return Int(connection.changes)
        }
    }

    public func lastHistoryToken() throws -> PersistentHistoryToken? {
        try read("reading its persistent history") { connection in
            guard try SQLiteHistoryTables.exist(on: connection) else { return nil }
            let rows = try connection.cachedStatement(
                "SELECT max(coalesce((SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?), 0), "
                    + "coalesce((SELECT max(Z_PK) FROM ATRANSACTION), 0))"
            ).rows([.integer(SQLiteHistoryTables.transactionEntity)]) { $0.value(at: 0) }
            guard case .integer(let number)? = rows.first, number > 0 else { return nil }
            return PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: number)
        }
    }

    /// The transactions other writers saved after `number`, found when the watching
    /// connection's `PRAGMA data_version` moved since the last call.
    public func remoteHistory(after number: Int64) throws -> RemoteHistory? {
        let counter: Int64
        do {
            counter = try pool.withWatcher { connection in
                let rows = try connection.cachedStatement("PRAGMA data_version").rows([]) { $0.value(at: 0) }
                guard case .integer(let version)? = rows.first else {
                    throw StoreError(code: .io, message: "\(storeName) answered PRAGMA data_version with \(rows).")
                }
                return version
            }
        } catch let error as SQLiteError {
            throw storeError(error, doing: "watching for other writers' saves")
        }
        return try recordedHistory.remoteHistory(after: number, counter: counter) {
            try historyTransactions(after: .transactionNumber($0), includingChanges: $1)
        }
    }

    /// The changes of the transactions numbered `first` and above, by transaction number, in order.
    private func historyChanges(
        from first: Int64, on connection: SQLiteConnection
    ) throws -> [Int64: [PersistentHistoryChange]] {
        let tombstoneColumns = try SQLiteHistoryTables.tombstoneColumns(on: connection)
        let sql =
            "SELECT Z_PK, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID, ZCOLUMNS"
            + tombstoneColumns.map { ", \($0)" }.joined()
            + " FROM ACHANGE WHERE ZTRANSACTIONID >= ? ORDER BY Z_PK"
        var changes: [Int64: [PersistentHistoryChange]] = [:]
        let statement = try connection.statement(sql)
        try statement.bind([.integer(first)])
        while try statement.step() {
            guard case .integer(let number) = statement.value(at: 0),
                case .integer(let rawType) = statement.value(at: 1),
                let type = PersistentHistoryChange.ChangeType(rawValue: Int(rawType)),
                case .integer(let transaction) = statement.value(at: 4)
            else {
                throw StoreError(
                    code: .corrupt,
                    message: "\(storeName) has a history change (ACHANGE row \(statement.value(at: 0))) "
                        + "without a key, a known change type or a transaction.")
            }
            let objectID = try objectID(primaryKey: statement.value(at: 3), entityNumber: statement.value(at: 2))
            let entity = try historyEntity(of: objectID)
            let token = PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: transaction)
            var change = PersistentHistoryChange(
                changeIdentifier: number, changedObjectID: objectID, changeType: type, transactionToken: token)
            if type == .update, case .blob(let bytes) = statement.value(at: 5) {
                change.updatedProperties = entity.keys(inColumns: bytes)
            }
            if type == .delete, !entity.tombstoneAttributes.isEmpty {
                var tombstone: [String: AttributeValue] = [:]
                for (index, attribute) in entity.tombstoneAttributes.enumerated() where index < tombstoneColumns.count {
                    let stored = statement.value(at: 6 + index)
                    guard let value = SQLiteValueCodec.decode(stored, as: attribute.type) else {
                        throw StoreError(
                            code: .corrupt,
                            message: "\(storeName) keeps \(stored) in \(tombstoneColumns[index]) of ACHANGE row "
                                + "\(number), the tombstone of '\(objectID.entityName).\(attribute.name)', which is "
                                + "not a \(attribute.type) value.")
                    }
                    tombstone[attribute.name] = value
                }
                change.tombstone = tombstone
            }
            changes[transaction, default: []].append(change)
        }
        return changes
    }

    /// The condition on `ATRANSACTION t` of the transactions after `bound`, and its parameter.
    private static func transactionCondition(after bound: StoreHistoryBound) -> (String, SQLiteValue) {
        switch bound {
        case .transactionNumber(let number): ("t.Z_PK > ?", .integer(number))
        case .date(let date): ("t.ZTIMESTAMP > ?", .real(date.timeIntervalSinceReferenceDate))
        }
    }

    /// The condition on `ATRANSACTION t` of the transactions up to `bound`, and its parameter.
    private static func transactionCondition(before bound: StoreHistoryBound) -> (String, SQLiteValue) {
        switch bound {
        case .transactionNumber(let number): ("t.Z_PK <= ?", .integer(number))
        case .date(let date): ("t.ZTIMESTAMP < ?", .real(date.timeIntervalSinceReferenceDate))
        }
    }
}
