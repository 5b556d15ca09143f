import Foundation

/// Saves that other coordinators or processes made to a store a coordinator watches
/// (``StoreOptions/postsRemoteChangeNotifications``), found in the store's persistent history:
/// what ``PersistentStoreCoordinator/remoteChanges`` carries, as Core Data's
/// `NSPersistentStoreRemoteChange` notification does.
public struct RemoteStoreChange: Sendable, Hashable {
    /// The identifier of the store that was written.
    public var storeIdentifier: String
    /// The store's file, when it has one.
    public var storeURL: URL?
    /// The token of the newest transaction found: where a reader of the history got to.
    public var historyToken: PersistentHistoryToken
    /// The transactions the others saved, oldest first, with their changes.
    public var transactions: [PersistentHistoryTransaction]

    /// Creates a change.
    public init(
        storeIdentifier: String, storeURL: URL?, historyToken: PersistentHistoryToken,
        transactions: [PersistentHistoryTransaction]
    ) {
        self.storeIdentifier = storeIdentifier
        self.storeURL = storeURL
        self.historyToken = historyToken
        self.transactions = transactions
    }

    /// The transactions as one did-save notification, which
    /// ``ManagedObjectContext/mergeChanges(fromContextDidSave:)`` merges.
    public func objectIDNotification() -> ContextNotification {
        var merged = ContextNotification(kind: .didSave)
        for transaction in transactions {
            let notification = transaction.objectIDNotification()
            merged.insertedObjectIDs.formUnion(notification.insertedObjectIDs)
            merged.updatedObjectIDs.formUnion(notification.updatedObjectIDs)
            merged.deletedObjectIDs.formUnion(notification.deletedObjectIDs)
        }
        return merged
    }
}
