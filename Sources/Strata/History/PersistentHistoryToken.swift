/// Names one transaction of a store's persistent history: where a reader of the history got
/// to (docs/HISTORY.md).
///
/// Tokens of one store are ordered as its transactions were saved, survive reopening the
/// store (transaction numbers are never handed out twice, also after history is deleted),
/// and are `Codable`, so that a process can keep the last one it read. Tokens of different
/// stores are ordered by store identifier first.
public struct PersistentHistoryToken: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The identifier of the store whose history the transaction is in.
    public var storeIdentifier: String
    /// The transaction's number in the store's history: 1 for the first, larger for each later one.
    public var transactionNumber: Int64

    /// Creates a token.
    public init(storeIdentifier: String, transactionNumber: Int64) {
        self.storeIdentifier = storeIdentifier
        self.transactionNumber = transactionNumber
    }

    public static func < (lhs: PersistentHistoryToken, rhs: PersistentHistoryToken) -> Bool {
        (lhs.storeIdentifier, lhs.transactionNumber) < (rhs.storeIdentifier, rhs.transactionNumber)
    }

    /// The store and the transaction's number.
    public var description: String { "transaction \(transactionNumber) of store \(storeIdentifier)" }
}
