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

extension StoreChangeSet {
    /// Who saves a change set, for a store that records it in its persistent history.
    public struct HistoryInfo: Sendable, Hashable {
        /// When the save was made.
        public var timestamp: Date
        /// The saving context's ``ManagedObjectContext/transactionAuthor``.
        public var author: String?
        /// The saving context's name.
        public var contextName: String?
        /// The name of the saving process.
        public var processIdentifier: String?
        /// The bundle identifier of the saving application, when it has one.
        public var bundleIdentifier: String?

        /// Creates the record of a save made now by this process.
        public init(
            timestamp: Date = Date(), author: String? = nil, contextName: String? = nil,
            processIdentifier: String? = HistoryInfo.currentProcessName,
            bundleIdentifier: String? = Bundle.main.bundleIdentifier
        ) {
            self.timestamp = timestamp
            self.author = author
            self.contextName = contextName
            self.processIdentifier = processIdentifier
            self.bundleIdentifier = bundleIdentifier
        }

        /// The name of this process, as transactions record it.
        public static let currentProcessName = ProcessInfo.processInfo.processName
    }
}
