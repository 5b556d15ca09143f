import Foundation

@testable import Strata

/// A real store wrapped to watch what a context asks of it: the fetch requests it gets, and
/// counts of single and batched row loads and member loads, saves, attachments and closes. It can declare fewer predicate
/// features than the store it wraps, so that the context evaluates the rest.
final class ObservedStore: IncrementalStore {
    struct Reads: Equatable {
        var rows = 0
        var rowBatches = 0
        var members = 0
        var memberBatches = 0
        var saves = 0
        var attachments = 0
        var closes = 0
    }

    let base: any IncrementalStore
    let requests = Locked<[StoreFetchRequest]>([])
    let reads = Locked(Reads())
    /// Whether loading rows and members fails, as on a disk that went away.
    let failsReads = Locked(false)
    let predicateFeatures: PredicateFeatures

    /// Wraps `base`, declaring `predicateFeatures` (by default, `base`'s).
    init(base: any IncrementalStore, predicateFeatures: PredicateFeatures? = nil) {
        self.base = base
        self.predicateFeatures = predicateFeatures ?? base.predicateFeatures
    }

    var typeName: String { "Observed" }
    var identifier: String { base.identifier }
    var url: URL? { nil }
    var configurationName: String? { base.configurationName }
    var options: StoreOptions { base.options }
    var capabilities: StoreCapabilities { base.capabilities }
    var metadata: StoreMetadata { base.metadata }

    func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        requests.withLock { $0.append(request) }
        return try base.execute(request)
    }
    func snapshot(for objectID: ObjectID) throws -> Snapshot? {
        reads.withLock { $0.rows += 1 }
        try failIfAsked()
        return try base.snapshot(for: objectID)
    }
    func snapshots(for objectIDs: [ObjectID]) throws -> [Snapshot] {
        reads.withLock { $0.rowBatches += 1 }
        try failIfAsked()
        return try base.snapshots(for: objectIDs)
    }
    func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        reads.withLock { $0.members += 1 }
        try failIfAsked()
        return try base.relatedObjectIDs(of: objectID, relationship: relationship)
    }
    func relatedObjectIDs(ofEach objectIDs: [ObjectID], relationship: String) throws -> [ObjectID: [ObjectID]] {
        reads.withLock { $0.memberBatches += 1 }
        try failIfAsked()
        return try base.relatedObjectIDs(ofEach: objectIDs, relationship: relationship)
    }
    private func failIfAsked() throws {
        if failsReads.withLock({ $0 }) { throw StoreError(code: .io, message: "The observed store cannot read now.") }
    }
    func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID] {
        try base.permanentIDs(forEntities: entityNames)
    }
    func save(_ changes: StoreChangeSet) throws {
        reads.withLock { $0.saves += 1 }
        try base.save(changes)
    }
    func willAttach() throws {
        try base.willAttach()
        reads.withLock { $0.attachments += 1 }
    }
    func close() {
        reads.withLock { $0.closes += 1 }
        base.close()
    }
}
