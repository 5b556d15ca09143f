/// What a store found written by others since it was last asked
/// (``IncrementalStore/remoteHistory(after:)``).
public struct RemoteHistory: Sendable, Hashable {
    /// The number of the newest transaction in the store's history, whoever saved it: where
    /// the coordinator asks from next time.
    public var lastTransactionNumber: Int64
    /// The transactions other store instances saved, oldest first, with their changes.
    public var transactions: [PersistentHistoryTransaction]

    /// Creates a finding.
    public init(lastTransactionNumber: Int64, transactions: [PersistentHistoryTransaction]) {
        self.lastTransactionNumber = lastTransactionNumber
        self.transactions = transactions
    }
}
