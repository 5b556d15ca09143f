import Foundation

/// One save (or batch operation) recorded in a store's persistent history: who made it, when,
/// and, when fetched with them, its changes.
public struct PersistentHistoryTransaction: Sendable, Hashable {
    /// The transaction's token: its store and number.
    public var token: PersistentHistoryToken
    /// When the save was made.
    public var timestamp: Date
    /// The saving context's ``ManagedObjectContext/transactionAuthor``.
    public var author: String?
    /// The saving context's ``ManagedObjectContext/name``.
    public var contextName: String?
    /// The name of the process that saved.
    public var processIdentifier: String?
    /// The bundle identifier of the application that saved, when it had one.
    public var bundleIdentifier: String?
    /// The transaction's changes, in the order they were recorded; `nil` when the request
    /// asked for transactions only.
    public var changes: [PersistentHistoryChange]?

    /// Creates a transaction record.
    public init(
        token: PersistentHistoryToken, timestamp: Date, author: String? = nil, contextName: String? = nil,
        processIdentifier: String? = nil, bundleIdentifier: String? = nil, changes: [PersistentHistoryChange]? = nil
    ) {
        self.token = token
        self.timestamp = timestamp
        self.author = author
        self.contextName = contextName
        self.processIdentifier = processIdentifier
        self.bundleIdentifier = bundleIdentifier
        self.changes = changes
    }

    /// A transaction record of the save `info` describes.
    public init(
        token: PersistentHistoryToken, info: StoreChangeSet.HistoryInfo, changes: [PersistentHistoryChange]? = nil
    ) {
        self.init(
            token: token, timestamp: info.timestamp, author: info.author, contextName: info.contextName,
            processIdentifier: info.processIdentifier, bundleIdentifier: info.bundleIdentifier, changes: changes)
    }

    /// Who saved the transaction and when, as a store records it.
    public var historyInfo: StoreChangeSet.HistoryInfo {
        StoreChangeSet.HistoryInfo(
            timestamp: timestamp, author: author, contextName: contextName, processIdentifier: processIdentifier,
            bundleIdentifier: bundleIdentifier)
    }

    /// The identifier of the store whose history holds the transaction.
    public var storeIdentifier: String { token.storeIdentifier }

    /// The transaction as a did-save notification, which
    /// ``ManagedObjectContext/mergeChanges(fromContextDidSave:)`` merges: its inserted, updated
    /// and deleted objects (empty when the transaction was fetched without its changes).
    public func objectIDNotification() -> ContextNotification {
        var inserted: Set<ObjectID> = []
        var updated: Set<ObjectID> = []
        var deleted: Set<ObjectID> = []
        for change in changes ?? [] {
            switch change.changeType {
            case .insert: inserted.insert(change.changedObjectID)
            case .update: updated.insert(change.changedObjectID)
            case .delete: deleted.insert(change.changedObjectID)
            }
        }
        return ContextNotification(
            kind: .didSave, contextName: contextName, insertedObjectIDs: inserted, updatedObjectIDs: updated,
            deletedObjectIDs: deleted)
    }
}
