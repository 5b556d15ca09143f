import Foundation

/// The persistent history of a whole-file store (docs/HISTORY.md): kept in the file with the
/// rest, as one binary record under a reserved key of the metadata's user info, and bounded to
/// the newest ``limit`` transactions.
///
/// The adapter takes the key out of the metadata it shows and puts it back whenever it writes,
/// so that saves of user keys and the history never overwrite each other.
struct AtomicStoreHistory: Sendable {
    /// The user-info key the history is kept under.
    static let metadataKey = "StrataPersistentHistory"
    /// The most transactions kept: recording another drops the oldest, as a deletion would.
    static let limit = 1_000

    /// The last transaction and change numbers handed out, so that neither is handed out
    /// twice, also after transactions are dropped or deleted.
    private var lastTransaction: Int64 = 0
    private var lastChange: Int64 = 0
    /// The transactions kept, oldest first, with their changes.
    private(set) var transactions: [PersistentHistoryTransaction] = []

    init() {}

    /// Throws ``StoreError/Code/invalidChange`` when `userInfo` sets the reserved key.
    static func checkUnreserved(_ userInfo: [String: AttributeValue], storeName: String) throws {
        guard userInfo[metadataKey] != nil else { return }
        throw StoreError(
            code: .invalidChange,
            message: "\(storeName) keeps its persistent history under the metadata key '\(metadataKey)'; "
                + "user keys cannot use it.")
    }

    /// The history in `metadata`'s user info, which loses the key.
    ///
    /// - Throws: ``StoreError/Code/corrupt`` naming `source` when the key holds something else
    ///   than a history record.
    static func take(from metadata: inout StoreMetadata, source: String) throws -> AtomicStoreHistory {
        guard let stored = metadata.userInfo.removeValue(forKey: metadataKey) else { return AtomicStoreHistory() }
        let what = "The persistent history of \(source) (metadata key '\(metadataKey)')"
        guard case .binary(let data) = stored else {
            throw StoreError(code: .corrupt, message: "\(what) holds \(stored), not a history record.")
        }
        let context = BinaryCodingContext(homeStoreIdentifier: metadata.storeIdentifier)
        return try BinaryRecord.decode(Array(data), source: what, context: context) { reader in
            var history = AtomicStoreHistory()
            history.lastTransaction = try reader.readSigned("the last transaction number")
            history.lastChange = try reader.readSigned("the last change number")
            history.transactions = try (0..<reader.readCount("the number of transactions")).map { _ in
                let token = PersistentHistoryToken(
                    storeIdentifier: metadata.storeIdentifier,
                    transactionNumber: try reader.readSigned("a transaction number"))
                let info = try reader.readHistoryInfo()
                let first = try reader.readSigned("the first change number")
                let changes = try (0..<reader.readCount("the number of changes")).map { index in
                    try reader.readHistoryChange(
                        identifier: StoredCounter.adding(Int64(index), to: first, "A change number of the history"),
                        token: token)
                }
                return PersistentHistoryTransaction(token: token, info: info, changes: changes)
            }
            return history
        }
    }

    /// `metadata` with the history under its key, unless nothing was ever recorded.
    func adding(to metadata: StoreMetadata) -> StoreMetadata {
        guard lastTransaction > 0 else { return metadata }
        var metadata = metadata
        let context = BinaryCodingContext(homeStoreIdentifier: metadata.storeIdentifier)
        let bytes = BinaryRecord.encode(context: context) { writer in
            writer.write(signed: lastTransaction)
            writer.write(signed: lastChange)
            writer.write(count: transactions.count)
            for transaction in transactions {
                writer.write(signed: transaction.token.transactionNumber)
                writer.write(historyInfo: transaction.historyInfo)
                let changes = transaction.changes ?? []
                writer.write(signed: changes.first?.changeIdentifier ?? lastChange &+ 1)
                writer.write(count: changes.count)
                for change in changes { writer.write(historyChange: change) }
            }
        }
        metadata.userInfo[Self.metadataKey] = .binary(Data(bytes))
        return metadata
    }

    /// Records `changes` as the next transaction of the store `storeIdentifier`, with the
    /// tombstones of deleted objects read from `stored`, dropping the oldest transactions
    /// beyond ``limit``.
    ///
    /// - Throws: ``StoreError`` with code `corrupt` when a counter read from the file cannot
    ///   count further.
    mutating func record(
        _ changes: StoreChangeSet, storeIdentifier: String, schema: ModelSchema, stored: AtomicNodeTable
    ) throws {
        let total = Int64(changes.inserted.count + changes.updated.count + changes.deleted.count)
        let last = try StoredCounter.adding(total, to: lastChange, "The last history change number")
        lastTransaction = try StoredCounter.next(after: lastTransaction, "The last history transaction number")
        let token = PersistentHistoryToken(storeIdentifier: storeIdentifier, transactionNumber: lastTransaction)
        let recorded = changes.historyChanges(
            token: token, firstChange: lastChange &+ 1, schema: schema, stored: { stored.snapshot(of: $0) })
        lastChange = last
        transactions.append(
            PersistentHistoryTransaction(
                token: token, info: changes.history ?? StoreChangeSet.HistoryInfo(), changes: recorded))
        if transactions.count > Self.limit { transactions.removeFirst(transactions.count - Self.limit) }
    }

    /// Replaces the transactions with `replacements` (checked by the caller) as the history of
    /// the store `storeIdentifier`, numbering their changes after every change handed out.
    ///
    /// - Throws: ``StoreError`` with code `corrupt` when the change counter cannot count further.
    mutating func replace(with replacements: [PersistentHistoryTransaction], storeIdentifier: String) throws {
        transactions = []
        lastTransaction = 0
        for var transaction in replacements {
            transaction.token.storeIdentifier = storeIdentifier
            transaction.changes = try (transaction.changes ?? []).map { change in
                var change = change
                lastChange = try StoredCounter.next(after: lastChange, "The last history change number")
                change.changeIdentifier = lastChange
                change.transactionToken = transaction.token
                return change
            }
            lastTransaction = transaction.token.transactionNumber
            transactions.append(transaction)
        }
        if transactions.count > Self.limit { transactions.removeFirst(transactions.count - Self.limit) }
    }

    /// The transactions after `bound`, with or without their changes.
    func transactions(after bound: StoreHistoryBound, includingChanges: Bool) -> [PersistentHistoryTransaction] {
        transactions.filter { transaction in
            switch bound {
            case .transactionNumber(let number): transaction.token.transactionNumber > number
            case .date(let date): transaction.timestamp > date
            }
        }.map { transaction in
            var transaction = transaction
            if !includingChanges { transaction.changes = nil }
            return transaction
        }
    }

    /// Deletes the transactions up to `bound`; returns how many.
    mutating func delete(before bound: StoreHistoryBound) -> Int {
        let before = transactions.count
        transactions.removeAll { transaction in
            switch bound {
            case .transactionNumber(let number): transaction.token.transactionNumber <= number
            case .date(let date): transaction.timestamp < date
            }
        }
        return before - transactions.count
    }

    /// The token of the last transaction handed out; `nil` before the first.
    func lastToken(storeIdentifier: String) -> PersistentHistoryToken? {
        lastTransaction == 0
            ? nil : PersistentHistoryToken(storeIdentifier: storeIdentifier, transactionNumber: lastTransaction)
    }
}
