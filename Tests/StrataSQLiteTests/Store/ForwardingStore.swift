import Foundation
import Strata

/// A store that hands every call to `base`: the negative controls subclass it and override
/// the calls whose defect they need.
class ForwardingStore: IncrementalStore, @unchecked Sendable {
    // Safe: subclasses add only state guarded by a lock of their own; `base` is Sendable.
    let base: any IncrementalStore

    init(_ base: any IncrementalStore) { self.base = base }

    var typeName: String { base.typeName }
    var identifier: String { base.identifier }
    var url: URL? { base.url }
    var configurationName: String? { base.configurationName }
    var options: StoreOptions { base.options }
    var capabilities: StoreCapabilities { base.capabilities }
    var metadata: StoreMetadata { base.metadata }
    var predicateFeatures: PredicateFeatures { base.predicateFeatures }

    func willAttach() throws { try base.willAttach() }
    func close() { base.close() }
    func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult { try base.execute(request) }
    func snapshot(for objectID: ObjectID) throws -> Snapshot? { try base.snapshot(for: objectID) }
    func snapshots(for objectIDs: [ObjectID]) throws -> [Snapshot] { try base.snapshots(for: objectIDs) }
    func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        try base.relatedObjectIDs(of: objectID, relationship: relationship)
    }
    func relatedObjectIDs(ofEach objectIDs: [ObjectID], relationship: String) throws -> [ObjectID: [ObjectID]] {
        try base.relatedObjectIDs(ofEach: objectIDs, relationship: relationship)
    }
    func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID] {
        try base.permanentIDs(forEntities: entityNames)
    }
    func save(_ changes: StoreChangeSet) throws { try base.save(changes) }
    func openGeneration() throws -> (any StoreGeneration)? { try base.openGeneration() }
    func historyTransactions(after bound: StoreHistoryBound, includingChanges: Bool) throws
        -> [PersistentHistoryTransaction]
    {
        try base.historyTransactions(after: bound, includingChanges: includingChanges)
    }
    func deleteHistory(before bound: StoreHistoryBound) throws -> Int { try base.deleteHistory(before: bound) }
    func lastHistoryToken() throws -> PersistentHistoryToken? { try base.lastHistoryToken() }
    func remoteHistory(after number: Int64) throws -> RemoteHistory? { try base.remoteHistory(after: number) }
    func replaceHistory(with transactions: [PersistentHistoryTransaction]) throws {
        try base.replaceHistory(with: transactions)
    }
}
