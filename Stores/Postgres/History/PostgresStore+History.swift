import Foundation
@_spi(StoreAuthoring) import Strata

/// Recording saves in the history tables, in the save's own transaction, and reading,
/// deleting and replacing them (``PostgresHistoryTables``).
extension PostgresStore {
    /// The snapshots before the save of those of `deleted` whose entity keeps a tombstone,
    /// read before their rows go.
    func tombstoneSnapshots(of deleted: [StoreChangeSet.Deletion], on connection: PostgresConnection) throws
        -> [ObjectID: Snapshot]
    {
        let keeping = deleted.map(\.objectID).filter {
            !StoreChangeSet.tombstoneAttributes(of: model.entitiesByName[$0.entityName]).isEmpty
        }
        guard !keeping.isEmpty else { return [:] }
        let snapshots = try snapshots(for: keeping, on: connection)
        return Dictionary(snapshots.map { ($0.objectID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Records `changes`, which change objects, as one transaction, with the tombstones of the
    /// deleted objects taken from `stored`, and (`notifying`) notifies listeners when it
    /// commits; returns the transaction's number, for the save to note as this store's own
    /// (``RemoteHistoryWatch``). A prepared transaction cannot notify: its commit does.
    func recordHistory(
        of changes: StoreChangeSet, stored: [ObjectID: Snapshot], notifying: Bool, on connection: PostgresConnection
    ) throws -> Int64 {
        let count = changes.inserted.count + changes.updated.count + changes.deleted.count
        let (number, firstChange) = try history.reserve(changeCount: count, on: connection)
        let records = changes.historyChanges(
            token: PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: number),
            firstChange: firstChange, schema: model, stored: { stored[$0] })
        try history.insert(
            changes.history ?? StoreChangeSet.HistoryInfo(), number: number, changes: records,
            firstChange: firstChange, context: historyContext, on: connection)
        if notifying { try history.notify(number, on: connection) }
        return number
    }

    public func historyTransactions(
        after bound: StoreHistoryBound, includingChanges: Bool
    ) throws -> [PersistentHistoryTransaction] {
        try withConnection { connection in
            guard try history.exist(on: connection) else { return [] }
            let columns = PostgresHistoryTables.columns.prefix(includingChanges ? 8 : 6)
            let (condition, parameter) = PostgresHistoryTables.condition(after: bound)
            let rows = try connection.execute(
                "SELECT \(columns.map(PostgresIdentifier.quoted).joined(separator: ", ")) FROM \(history.transactions) "
                    + "WHERE \(condition) ORDER BY number",
                [parameter])
            return try (0..<rows.rowCount).map { row in
                try PostgresHistoryTables.transaction(
                    rows, row: row, storeIdentifier: identifier, includingChanges: includingChanges,
                    context: historyContext, source: storeName)
            }
        }
    }

    public func deleteHistory(before bound: StoreHistoryBound) throws -> Int {
        guard !options.isReadOnly else {
            throw StoreError(code: .readOnly, message: "\(storeName) was opened read-only.")
        }
        return try withConnection { connection in
            guard try history.exist(on: connection) else { return 0 }
            let (condition, parameter) = PostgresHistoryTables.condition(upTo: bound)
            return try connection.execute("DELETE FROM \(history.transactions) WHERE \(condition)", [parameter])
                .changedRows
        }
    }

    public func lastHistoryToken() throws -> PersistentHistoryToken? {
        let number = try withConnection { connection in
            try history.exist(on: connection) ? try history.lastNumbers(on: connection).transaction : 0
        }
        return number == 0 ? nil : PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: number)
    }

    /// Empties the history and writes `transactions` in one transaction, keeping their numbers
    /// and numbering their changes after every change handed out; creates the tables first
    /// when the schema lacks them.
    public func replaceHistory(with transactions: [PersistentHistoryTransaction]) throws {
        try transactions.checkReplacementOrder(storeName: storeName)
        guard !options.isReadOnly else {
            throw StoreError(code: .readOnly, message: "\(storeName) was opened read-only.")
        }
        try withConnection { connection in
            try connection.transaction {
                try history.create(on: connection)
                var lastChange = try history.lastNumbers(lockingThem: true, on: connection).change
                try connection.execute("DELETE FROM \(history.transactions)")
                for replacement in transactions {
                    let changes = replacement.changes ?? []
                    try history.insert(
                        replacement.historyInfo, number: replacement.token.transactionNumber, changes: changes,
                        firstChange: lastChange &+ 1, context: historyContext, on: connection)
                    lastChange = try StoredCounter.adding(
                        Int64(changes.count), to: lastChange, "The last history change of \(storeName)")
                }
                try history.setLastNumbers(
                    transaction: transactions.last?.token.transactionNumber ?? 0, change: lastChange, on: connection)
            }
        }
    }

    /// The transactions other writers saved after `number`, read when a notification of a
    /// save arrived since the last call.
    public func remoteHistory(after number: Int64) throws -> RemoteHistory? {
        try recordedHistory.remoteHistory(after: number, counter: changeListener.counter()) {
            try historyTransactions(after: .transactionNumber($0), includingChanges: $1)
        }
    }
}
