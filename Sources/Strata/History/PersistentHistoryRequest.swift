import Foundation

/// A request to a coordinator's persistent history: fetch the transactions after a point, or
/// delete the ones up to a point (docs/HISTORY.md).
///
/// ```swift
/// let request = PersistentHistoryRequest.fetchHistory(after: .token(lastToken))
/// guard case .transactions(let transactions) = try coordinator.execute(request) else { return }
/// for transaction in transactions { try context.mergeChanges(fromHistoryTransaction: transaction) }
/// ```
public struct PersistentHistoryRequest: Sendable {
    /// A point in a store's history.
    public enum Point: Sendable, Hashable {
        /// A moment: fetching takes the transactions saved after it, deleting the ones saved
        /// before it.
        case date(Date)
        /// A transaction of one store, or the beginning of every store's history (`nil`):
        /// fetching takes that store's transactions after it (and every transaction of the
        /// other stores), deleting takes the store's transactions up to and including it.
        case token(PersistentHistoryToken?)
        /// A transaction fetched before: as its token.
        case transaction(PersistentHistoryTransaction)
    }

    /// What the request does.
    public enum Action: Sendable, Hashable {
        /// Fetches the transactions after the point.
        case fetch(after: Point)
        /// Deletes the transactions up to the point.
        case delete(before: Point)
    }

    /// What the request answers with.
    public enum ResultType: Sendable, Hashable, CaseIterable {
        /// Whether it succeeded: ``PersistentHistoryResult/status(_:)``.
        case statusOnly
        /// How many transactions it fetched or deleted: ``PersistentHistoryResult/count(_:)``.
        case count
        /// The transactions, without their changes: ``PersistentHistoryResult/transactions(_:)``.
        case transactionsOnly
        /// The transactions with their changes: ``PersistentHistoryResult/transactions(_:)``.
        case transactionsAndChanges
        /// The changes of the transactions, in order: ``PersistentHistoryResult/changes(_:)``.
        case changesOnly
    }

    /// What the request does.
    public var action: Action
    /// What it answers with: the transactions with their changes by default; a deletion
    /// answers ``ResultType/statusOnly`` or ``ResultType/count`` (any other type counts).
    public var resultType: ResultType
    /// The transactions to keep, judged on `author`, `contextName`, `processIdentifier`,
    /// `bundleIdentifier` (strings or nil), `timestamp` (a date), `storeIdentifier` (a string)
    /// and `transactionNumber` (an integer); `nil` keeps every one. Only for fetches.
    public var transactionPredicate: FetchPredicate?
    /// The changes to keep, judged on `changeType` (0 insert, 1 update, 2 delete),
    /// `entityName` (a string), `changeIdentifier` (an integer) and `changedObjectID`; `nil`
    /// keeps every one. Only for fetches; a transaction keeps its other fields when none of
    /// its changes is kept.
    public var changePredicate: FetchPredicate?
    /// The stores whose history to read or delete; `nil` for every added store that tracks
    /// history.
    public var affectedStores: [any IncrementalStore]?

    /// Creates a request.
    public init(
        _ action: Action, resultType: ResultType = .transactionsAndChanges,
        transactionPredicate: FetchPredicate? = nil, changePredicate: FetchPredicate? = nil,
        affectedStores: [any IncrementalStore]? = nil
    ) {
        self.action = action
        self.resultType = resultType
        self.transactionPredicate = transactionPredicate
        self.changePredicate = changePredicate
        self.affectedStores = affectedStores
    }

    /// A request fetching the transactions after `point`, with their changes.
    public static func fetchHistory(after point: Point) -> PersistentHistoryRequest {
        PersistentHistoryRequest(.fetch(after: point))
    }

    /// A request deleting the transactions up to `point`, answering with their count.
    public static func deleteHistory(before point: Point) -> PersistentHistoryRequest {
        PersistentHistoryRequest(.delete(before: point), resultType: .count)
    }
}

/// What a persistent history request answers with, as its ``PersistentHistoryRequest/resultType`` asks.
public enum PersistentHistoryResult: Sendable, Hashable {
    /// Whether the request succeeded (it throws when it does not).
    case status(Bool)
    /// How many transactions it fetched or deleted.
    case count(Int)
    /// The transactions it fetched, oldest first for each store.
    case transactions([PersistentHistoryTransaction])
    /// The changes of the transactions it fetched, in order.
    case changes([PersistentHistoryChange])
}
