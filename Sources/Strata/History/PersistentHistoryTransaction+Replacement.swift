extension [PersistentHistoryTransaction] {
    /// Throws ``StoreError/Code/invalidChange`` naming `storeName` unless the transactions are
    /// numbered from 1 up in growing order, as ``IncrementalStore/replaceHistory(with:)`` takes
    /// them.
    public func checkReplacementOrder(storeName: String) throws {
        if let first, first.token.transactionNumber < 1 {
            throw StoreError(
                code: .invalidChange,
                message: "The history given to \(storeName) numbers a transaction \(first.token.transactionNumber); "
                    + "numbers start at 1.")
        }
        for (previous, next) in zip(self, dropFirst())
        where next.token.transactionNumber <= previous.token.transactionNumber {
            throw StoreError(
                code: .invalidChange,
                message: "The history given to \(storeName) must be in growing order: transaction "
                    + "\(next.token.transactionNumber) follows \(previous.token.transactionNumber).")
        }
    }
}
