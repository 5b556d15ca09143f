import Foundation
@_spi(StoreAuthoring) import Strata

/// Recording saves in the store's history databases, in the save's own write transaction, and
/// reading and deleting them.
extension LMDBStore {
    /// Records `changes` as one transaction, with the tombstones of the deleted objects taken
    /// from `stored`, their snapshots before the save; returns the transaction's number.
    func recordHistory(
        of changes: StoreChangeSet, stored: [ObjectID: Snapshot], history: LMDBHistoryLayout,
        in transaction: LMDBTransaction
    ) throws -> Int64 {
        let counters = try LMDBHistoryLayout.decodeCounters(
            transaction.get(databases.meta, LMDBHistoryLayout.countersKey), source: layout.source)
        let number = try StoredCounter.next(after: counters.transaction, "The last history transaction of \(storeName)")
        let total = Int64(changes.inserted.count + changes.updated.count + changes.deleted.count)
        let lastChange = try StoredCounter.adding(total, to: counters.change, "The last history change of \(storeName)")
        let records = changes.historyChanges(
            token: PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: number),
            firstChange: counters.change &+ 1, schema: model, stored: { stored[$0] })
        let key = LMDBLayout.key(number)
        try transaction.put(
            history.transactions, key, LMDBHistoryLayout.encode(changes.history ?? StoreChangeSet.HistoryInfo()))
        try transaction.put(
            history.changes, key,
            LMDBHistoryLayout.encode(records, firstChange: counters.change &+ 1, context: layout.context))
        try transaction.put(
            databases.meta, LMDBHistoryLayout.countersKey,
            LMDBHistoryLayout.encodeCounters(transaction: number, change: lastChange))
        return number
    }

    /// Empties the history databases and writes `transactions` into them in one write
    /// transaction, keeping their numbers and numbering their changes after every change
    /// handed out.
    public func replaceHistory(with transactions: [PersistentHistoryTransaction]) throws {
        try transactions.checkReplacementOrder(storeName: storeName)
        guard let history = databases.history else {
            if transactions.isEmpty { return }
            throw StoreError(
                code: .unsupported,
                message: "\(storeName) has no history databases; open it with tracksPersistentHistory to give it a "
                    + "history.")
        }
        try write("replacing its persistent history") { loader in
            let transaction = loader.transaction
            let counters = try LMDBHistoryLayout.decodeCounters(
                transaction.get(databases.meta, LMDBHistoryLayout.countersKey), source: layout.source)
            try transaction.empty(history.transactions)
            try transaction.empty(history.changes)
            var lastChange = counters.change
            for replacement in transactions {
                let key = LMDBLayout.key(replacement.token.transactionNumber)
                let changes = replacement.changes ?? []
                try transaction.put(history.transactions, key, LMDBHistoryLayout.encode(replacement.historyInfo))
                try transaction.put(
                    history.changes, key,
                    LMDBHistoryLayout.encode(changes, firstChange: lastChange &+ 1, context: layout.context))
                lastChange = try StoredCounter.adding(
                    Int64(changes.count), to: lastChange, "The last history change of \(storeName)")
            }
            try transaction.put(
                databases.meta, LMDBHistoryLayout.countersKey,
                LMDBHistoryLayout.encodeCounters(
                    transaction: transactions.last?.token.transactionNumber ?? 0, change: lastChange))
        }
    }

    public func historyTransactions(
        after bound: StoreHistoryBound, includingChanges: Bool
    ) throws -> [PersistentHistoryTransaction] {
        guard let history = databases.history else { return [] }
        return try read("reading its persistent history") { loader in
            let transaction = loader.transaction
            var found: [PersistentHistoryTransaction] = []
            try scanHistory(history, from: bound, in: transaction) { header in
                guard bound.follows(header) else { return true }
                let token = PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: header.number)
                var record = PersistentHistoryTransaction(token: token, info: header.info)
                if includingChanges {
                    guard let bytes = try transaction.get(history.changes, LMDBLayout.key(header.number)) else {
                        throw StoreError(
                            code: .corrupt,
                            message: "\(storeName) has history transaction \(header.number) without its changes.")
                    }
                    record.changes = try LMDBHistoryLayout.decodeChanges(
                        bytes, token: token, context: layout.context, source: layout.source)
                }
                found.append(record)
                return true
            }
            return found
        }
    }

    public func deleteHistory(before bound: StoreHistoryBound) throws -> Int {
        guard let history = databases.history else { return 0 }
        return try write("deleting its persistent history") { loader in
            var doomed: [Int64] = []
            try scanHistory(history, from: .transactionNumber(0), in: loader.transaction) { header in
                if bound.precedes(header) {
                    doomed.append(header.number)
                    return true
                }
                return bound.isDate
            }
            for number in doomed {
                try loader.transaction.delete(history.transactions, LMDBLayout.key(number))
                try loader.transaction.delete(history.changes, LMDBLayout.key(number))
            }
            return doomed.count
        }
    }

    public func lastHistoryToken() throws -> PersistentHistoryToken? {
        guard databases.history != nil else { return nil }
        let number = try read("reading its persistent history") { loader in
            try LMDBHistoryLayout.decodeCounters(
                loader.transaction.get(databases.meta, LMDBHistoryLayout.countersKey), source: layout.source
            ).transaction
        }
        return number == 0 ? nil : PersistentHistoryToken(storeIdentifier: identifier, transactionNumber: number)
    }

    /// The transactions other writers saved after `number`, found when liblmdb's last
    /// transaction ID moved since the last call.
    public func remoteHistory(after number: Int64) throws -> RemoteHistory? {
        try recordedHistory.remoteHistory(after: number, counter: Int64(environment.lastTransactionID)) {
            try historyTransactions(after: .transactionNumber($0), includingChanges: $1)
        }
    }

    /// Visits the transactions in number order, from the first after `bound` when it is a
    /// number, from the first of all when it is a date, while `visit` returns `true`.
    private func scanHistory(
        _ history: LMDBHistoryLayout, from bound: StoreHistoryBound, in transaction: LMDBTransaction,
        _ visit: (LMDBHistoryLayout.Header) throws -> Bool
    ) throws {
        let start: [UInt8]
        switch bound {
        case .transactionNumber(let number):
            guard number < .max else { return }
            start = LMDBLayout.key(max(number, 0) + 1)
        case .date: start = []
        }
        try transaction.scan(history.transactions, from: start) { key, value in
            guard key.count == 8 else {
                throw StoreError(
                    code: .corrupt, message: "\(storeName) has a history transaction key of \(key.count) bytes.")
            }
            let number = LMDBLayout.primaryKey(key)
            return try visit(LMDBHistoryLayout.decodeHeader(Array(value), number: number, source: layout.source))
        }
    }
}

extension StoreHistoryBound {
    /// Whether the bound is a moment, which transactions in number order need not follow.
    fileprivate var isDate: Bool {
        if case .date = self { return true }
        return false
    }

    /// Whether the transaction `header` comes after the bound, for fetching.
    fileprivate func follows(_ header: LMDBHistoryLayout.Header) -> Bool {
        switch self {
        case .transactionNumber(let number): header.number > number
        case .date(let date): header.info.timestamp > date
        }
    }

    /// Whether the transaction `header` is up to the bound, for deleting.
    fileprivate func precedes(_ header: LMDBHistoryLayout.Header) -> Bool {
        switch self {
        case .transactionNumber(let number): header.number <= number
        case .date(let date): header.info.timestamp < date
        }
    }
}
