import Foundation
import Strata

/// A store that hands every call to `base`: the negative controls subclass it and override
/// the calls whose defect they need.
open class ForwardingStore: IncrementalStore, @unchecked Sendable {
    // Safe: subclasses add only state guarded by a lock of their own; `base` is Sendable.
    public let base: any IncrementalStore

    public init(_ base: any IncrementalStore) { self.base = base }

    open var typeName: String { base.typeName }
    open var identifier: String { base.identifier }
    open var url: URL? { base.url }
    open var configurationName: String? { base.configurationName }
    open var options: StoreOptions { base.options }
    open var capabilities: StoreCapabilities { base.capabilities }
    open var metadata: StoreMetadata { base.metadata }
    open var predicateFeatures: PredicateFeatures { base.predicateFeatures }

    open func willAttach() throws { try base.willAttach() }
    open func close() { base.close() }
    open func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult { try base.execute(request) }
    open func snapshot(for objectID: ObjectID) throws -> Snapshot? { try base.snapshot(for: objectID) }
    open func snapshots(for objectIDs: [ObjectID]) throws -> [Snapshot] { try base.snapshots(for: objectIDs) }
    open func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        try base.relatedObjectIDs(of: objectID, relationship: relationship)
    }
    open func relatedObjectIDs(ofEach objectIDs: [ObjectID], relationship: String) throws -> [ObjectID: [ObjectID]] {
        try base.relatedObjectIDs(ofEach: objectIDs, relationship: relationship)
    }
    open func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID] {
        try base.permanentIDs(forEntities: entityNames)
    }
    open func save(_ changes: StoreChangeSet) throws { try base.save(changes) }
    open func save(_ changes: StoreChangeSet, committingAfter decision: () throws -> Void) throws {
        try base.save(changes, committingAfter: decision)
    }
    open func openGeneration() throws -> (any StoreGeneration)? { try base.openGeneration() }
    open func historyTransactions(after bound: StoreHistoryBound, includingChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    {
        try base.historyTransactions(after: bound, includingChanges: includingChanges)
    }
    open func deleteHistory(before bound: StoreHistoryBound) throws -> Int { try base.deleteHistory(before: bound) }
    open func lastHistoryToken() throws -> PersistentHistoryToken? { try base.lastHistoryToken() }
    open func remoteHistory(after number: Int64) throws -> RemoteHistory? { try base.remoteHistory(after: number) }
    open func replaceHistory(with transactions: [PersistentHistoryTransaction]) throws {
        try base.replaceHistory(with: transactions)
    }
}
