import Foundation
import Strata

/// Recording saves in Core Data's history tables, in the save's own transaction.
extension SQLiteStore {
    /// The tombstone values of those of `deleted` whose entity keeps any, read before their
    /// rows go.
    func historyTombstones(
        of deleted: [StoreChangeSet.Deletion], on connection: SQLiteConnection
    ) throws -> [ObjectID: [AttributeValue]] {
        var tombstones: [ObjectID: [AttributeValue]] = [:]
        for deletion in deleted {
            let attributes = try historyEntity(of: deletion.objectID).tombstoneAttributes
            guard !attributes.isEmpty, let snapshot = try loadSnapshot(deletion.objectID, on: connection) else {
                continue
            }
            tombstones[deletion.objectID] = attributes.map { snapshot.values[$0.name] ?? .null }
        }
        return tombstones
    }

    /// Records `changes` as one transaction with one change per object, and `tombstones` with
    /// the deletions; creates the history tables first when the file lacks them.
    func recordHistory(
        of changes: StoreChangeSet, tombstones: [ObjectID: [AttributeValue]], on connection: SQLiteConnection
    ) throws {
        try SQLiteHistoryTables.create(on: connection)
        let info = changes.history ?? StoreChangeSet.HistoryInfo()
        let strings = try [info.author, info.bundleIdentifier, info.contextName, info.processIdentifier].map {
            try $0.map { try internHistoryString($0, on: connection) }.map(SQLiteValue.integer) ?? .null
        }
        let transaction = try SQLiteHistoryTables.reserveKeys(
            1, of: SQLiteHistoryTables.transactionEntity, on: connection)
        recordedHistory.noteRecorded(transaction)
        try connection.cachedStatement(
            "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?)"
        ).execute(
            [.integer(transaction), .integer(SQLiteHistoryTables.transactionEntity)] + strings
                + [.real(info.timestamp.timeIntervalSinceReferenceDate)])
        let count = changes.inserted.count + changes.updated.count + changes.deleted.count
        let first = try SQLiteHistoryTables.reserveKeys(count, of: SQLiteHistoryTables.changeEntity, on: connection)
        var rows = SQLiteHistoryChangeRows(transaction: transaction, firstKey: first, count: count)
        for change in changes.inserted { try rows.append(change.objectID, .insert, store: self) }
        for change in changes.updated {
            let columns = try historyEntity(of: change.objectID).columns(change.historyUpdatedKeys)
            try rows.append(change.objectID, .update, columns: .blob(columns), store: self)
        }
        for deletion in changes.deleted {
            try rows.append(deletion.objectID, .delete, tombstone: tombstones[deletion.objectID] ?? [], store: self)
        }
        try rows.write(on: connection)
    }

    /// The primary key of `name` in `ATRANSACTIONSTRING`, adding it when it is not there.
    private func internHistoryString(_ name: String, on connection: SQLiteConnection) throws -> Int64 {
        let found = try connection.cachedStatement("SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?")
            .rows([.text(name)]) { $0.value(at: 0) }
        if case .integer(let key)? = found.first { return key }
        let key = try SQLiteHistoryTables.reserveKeys(1, of: SQLiteHistoryTables.stringEntity, on: connection)
        try connection.cachedStatement("INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, ZNAME) VALUES (?, ?, ?)")
            .execute([.integer(key), .integer(SQLiteHistoryTables.stringEntity), .text(name)])
        return key
    }

    /// How the history tables list the properties of `objectID`'s entity.
    func historyEntity(of objectID: ObjectID) throws -> SQLiteHistoryEntity {
        if let entity = historyEntities[objectID.entityName] { return entity }
        return SQLiteHistoryEntity(try entitySchema(named: objectID.entityName))
    }
}
