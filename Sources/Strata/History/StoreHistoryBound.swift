import Foundation

/// Where in its history a store fetches from or deletes to (``IncrementalStore/historyTransactions(after:includingChanges:)``,
/// ``IncrementalStore/deleteHistory(before:)``).
public enum StoreHistoryBound: Sendable, Hashable {
    /// A transaction number: fetching takes the transactions numbered above it, deleting the
    /// ones numbered up to and including it. 0 is before the first transaction.
    case transactionNumber(Int64)
    /// A moment: fetching takes the transactions saved after it, deleting the ones saved before it.
    case date(Date)
}
