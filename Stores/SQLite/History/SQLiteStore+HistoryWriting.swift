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
    /// the deletions, and hands its number to `note` (``RemoteHistoryWatch/recording(_:)``);
    /// creates the history tables first when the file lacks them.
    func recordHistory(
        of changes: StoreChangeSet, tombstones: [ObjectID: [AttributeValue]], note: (Int64) -> Void,
        on connection: SQLiteConnection
    ) throws {
        try SQLiteHistoryTables.create(on: connection)
        let transaction = try insertHistoryTransaction(changes.history ?? StoreChangeSet.HistoryInfo(), on: connection)
        note(transaction)
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

    /// Replaces the history tables' transactions and changes with `transactions` in the
    /// writer's transaction, keeping their numbers (`Z_PRIMARYKEY` is set to hand out each
    /// one's number next, and the last one's at the end); change keys go on from the last.
    public func replaceHistory(with transactions: [PersistentHistoryTransaction]) throws {
        try transactions.checkReplacementOrder(storeName: storeName)
        try write("replacing its persistent history") { connection in
            try SQLiteHistoryTables.create(on: connection)
            try connection.execute(script: "DELETE FROM ACHANGE; DELETE FROM ATRANSACTION")
            try connection.cachedStatement("UPDATE Z_PRIMARYKEY SET Z_MAX = 0 WHERE Z_ENT = ?").execute([
                .integer(SQLiteHistoryTables.transactionEntity)
            ])
            for imported in transactions {
                try connection.cachedStatement("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?").execute([
                    .integer(imported.token.transactionNumber - 1), .integer(SQLiteHistoryTables.transactionEntity),
                ])
                let number = try insertHistoryTransaction(imported.historyInfo, on: connection)
                let changes = imported.changes ?? []
                let first = try SQLiteHistoryTables.reserveKeys(
                    changes.count, of: SQLiteHistoryTables.changeEntity, on: connection)
                var rows = SQLiteHistoryChangeRows(transaction: number, firstKey: first, count: changes.count)
                for change in changes {
                    let entity = try historyEntity(of: change.changedObjectID)
                    switch change.changeType {
                    case .insert: try rows.append(change.changedObjectID, .insert, store: self)
                    case .update:
                        try rows.append(
                            change.changedObjectID, .update,
                            columns: .blob(entity.columns(change.updatedProperties ?? [])), store: self)
                    case .delete:
                        let tombstone = change.tombstone.map { values in
                            entity.tombstoneAttributes.map { values[$0.name] ?? .null }
                        }
                        try rows.append(change.changedObjectID, .delete, tombstone: tombstone ?? [], store: self)
                    }
                }
                try rows.write(on: connection)
            }
        }
    }

    /// Inserts the `ATRANSACTION` row of a save by `info`, numbered by `Z_PRIMARYKEY`; returns
    /// its number.
    private func insertHistoryTransaction(_ info: StoreChangeSet.HistoryInfo, on connection: SQLiteConnection)
        throws -> Int64
    {
        let strings = try [info.author, info.bundleIdentifier, info.contextName, info.processIdentifier].map {
            try $0.map { try internHistoryString($0, on: connection) }.map(SQLiteValue.integer) ?? .null
        }
        let transaction = try SQLiteHistoryTables.reserveKeys(
            1, of: SQLiteHistoryTables.transactionEntity, on: connection)
        try connection.cachedStatement(
            "INSERT INTO ATRANSACTION (Z_PK, Z_ENT, ZAUTHORTS, ZBUNDLEIDTS, ZCONTEXTNAMETS, ZPROCESSIDTS, ZTIMESTAMP) "
                + "VALUES (?, ?, ?, ?, ?, ?, ?)"
        ).execute(
            [.integer(transaction), .integer(SQLiteHistoryTables.transactionEntity)] + strings
                + [.real(info.timestamp.timeIntervalSinceReferenceDate)])
        return transaction
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
