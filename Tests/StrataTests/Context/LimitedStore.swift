import Foundation

@testable import Strata

/// A store that evaluates no predicate features itself and records every request it gets,
/// wrapping a real in-memory store.
final class LimitedStore: IncrementalStore {
    let base: any IncrementalStore
    let requests = Locked<[StoreFetchRequest]>([])

    init(base: any IncrementalStore) { self.base = base }

    var typeName: String { "Limited" }
    var identifier: String { base.identifier }
    var url: URL? { nil }
    var configurationName: String? { base.configurationName }
    var options: StoreOptions { base.options }
    var capabilities: StoreCapabilities { base.capabilities }
    var metadata: StoreMetadata { base.metadata }
    var predicateFeatures: PredicateFeatures { [] }

    func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        requests.withLock { $0.append(request) }
        return try base.execute(request)
    }
    func snapshot(for objectID: ObjectID) throws -> Snapshot? { try base.snapshot(for: objectID) }
    func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        try base.relatedObjectIDs(of: objectID, relationship: relationship)
    }
    func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID] {
        try base.permanentIDs(forEntities: entityNames)
    }
    func save(_ changes: StoreChangeSet) throws { try base.save(changes) }
}
