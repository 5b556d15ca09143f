import Foundation

/// Fetching and deleting the persistent history of the stores that track it (docs/HISTORY.md).
extension PersistentStoreCoordinator {
    /// Runs `request` against the history of its ``PersistentHistoryRequest/affectedStores``
    /// (by default every added store opened with ``StoreOptions/tracksPersistentHistory``):
    /// a fetch answers with each store's transactions after the point, oldest first, store
    /// after store in the order they were added; a deletion removes each store's transactions
    /// up to the point, in one step per store.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unsupported`` naming an affected
    ///   store that does not track history; a predicate's evaluation error; a store's error.
    public func execute(_ request: PersistentHistoryRequest) throws -> PersistentHistoryResult {
        let stores = try historyStores(request.affectedStores)
        switch request.action {
        case .fetch(let point):
            return try fetchHistory(after: point, from: stores, request)
        case .delete(let point):
            var deleted = 0
            for store in stores {
                guard let bound = Self.bound(of: point, in: store, deleting: true) else { continue }
                deleted += try store.deleteHistory(before: bound)
            }
            return request.resultType == .statusOnly ? .status(true) : .count(deleted)
        }
    }

    /// The token of the newest transaction of each of `stores` (by default every added store
    /// that tracks history) that has one, in the order the stores were added: where a reader
    /// that has seen everything so far stands.
    public func currentPersistentHistoryTokens(fromStores stores: [any IncrementalStore]? = nil) throws
        -> [PersistentHistoryToken]
    {
        try historyStores(stores).compactMap { try $0.lastHistoryToken() }
    }

    private func fetchHistory(
        after point: PersistentHistoryRequest.Point, from stores: [any IncrementalStore],
        _ request: PersistentHistoryRequest
    ) throws -> PersistentHistoryResult {
        let wantsChanges =
            request.resultType == .transactionsAndChanges || request.resultType == .changesOnly
            || request.changePredicate != nil
        var transactions: [PersistentHistoryTransaction] = []
        for store in stores {
            guard let bound = Self.bound(of: point, in: store, deleting: false) else { continue }
            transactions += try store.historyTransactions(after: bound, includingChanges: wantsChanges)
        }
        if let predicate = request.transactionPredicate {
            transactions = try transactions.filter { try predicate.evaluate(with: KeyValueRecord($0)) }
        }
        if let predicate = request.changePredicate {
            for index in transactions.indices {
                transactions[index].changes = try transactions[index].changes?.filter {
                    try predicate.evaluate(with: KeyValueRecord($0))
                }
            }
        }
        switch request.resultType {
        case .statusOnly: return .status(true)
        case .count: return .count(transactions.count)
        case .changesOnly: return .changes(transactions.flatMap { $0.changes ?? [] })
        case .transactionsOnly:
            return .transactions(
                transactions.map { transaction in
                    var transaction = transaction
                    transaction.changes = nil
                    return transaction
                })
        case .transactionsAndChanges: return .transactions(transactions)
        }
    }

    /// `requested`, or every added store that tracks history.
    private func historyStores(_ requested: [any IncrementalStore]?) throws -> [any IncrementalStore] {
        let added = state.withLock { $0.stores.map(\.store) }
        guard let requested else { return added.filter { $0.options.tracksPersistentHistory } }
        for store in requested where !store.options.tracksPersistentHistory {
            throw StoreError(
                code: .unsupported,
                message: "\(store.nameInMessages) does not track persistent history; open it with "
                    + "tracksPersistentHistory to record and read its history.")
        }
        return requested
    }

    /// Where in `store`'s history `point` is; `nil` when a deletion touches nothing of it (a
    /// token of another store, or the beginning).
    private static func bound(
        of point: PersistentHistoryRequest.Point, in store: any IncrementalStore, deleting: Bool
    ) -> StoreHistoryBound? {
        let token: PersistentHistoryToken?
        switch point {
        case .date(let date): return .date(date)
        case .token(let given): token = given
        case .transaction(let transaction): token = transaction.token
        }
        guard let token, token.storeIdentifier == store.identifier else {
            return deleting ? nil : .transactionNumber(0)
        }
        return .transactionNumber(token.transactionNumber)
    }
}

extension KeyValueRecord {
    /// A transaction as a history request's transaction predicate sees it.
    fileprivate init(_ transaction: PersistentHistoryTransaction) {
        let strings: [String: String?] = [
            "author": transaction.author, "contextName": transaction.contextName,
            "processIdentifier": transaction.processIdentifier, "bundleIdentifier": transaction.bundleIdentifier,
        ]
        var values = strings.mapValues { ResolvedValue.value($0.map(AttributeValue.string) ?? .null) }
        values["timestamp"] = .value(.date(transaction.timestamp))
        values["storeIdentifier"] = .value(.string(transaction.storeIdentifier))
        values["transactionNumber"] = .value(.integer64(transaction.token.transactionNumber))
        self.init(identity: .integer64(transaction.token.transactionNumber), values)
    }

    /// A change as a history request's change predicate sees it.
    fileprivate init(_ change: PersistentHistoryChange) {
        self.init(
            identity: .integer64(change.changeIdentifier),
            [
                "changeType": .value(.integer64(Int64(change.changeType.rawValue))),
                "entityName": .value(.string(change.changedObjectID.entityName)),
                "changeIdentifier": .value(.integer64(change.changeIdentifier)),
                "changedObjectID": .value(.objectID(change.changedObjectID)),
            ])
    }
}
