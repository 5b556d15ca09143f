import Foundation

/// A parent context seen as a store by its child context: reads give the parent's current,
/// possibly unsaved, state, and a save becomes the parent's own pending changes. Every call
/// runs in one ``ManagedObjectContext/performAndWait(_:)`` block on the parent's queue.
///
/// Versions are the parent's versions for its children (see ``ChildVersions``), so that a
/// child's save meets a conflict, settled by its merge policy, when the parent changed an
/// object after the child read it.
final class ParentContextStore: IncrementalStore {
    /// The type name conflicts and errors name.
    static let typeName = "ParentContext"

    /// The parent context.
    let parent: ManagedObjectContext
    let identifier = UUID().uuidString
    let metadata: StoreMetadata

    init(parent: ManagedObjectContext) {
        self.parent = parent
        metadata = StoreMetadata(
            storeType: Self.typeName, storeIdentifier: identifier, versionHashes: [:], versionIdentifiers: [],
            versionHashesVersion: StoreMetadata.currentVersionHashesVersion, frameworkVersion: StrataVersion.current,
            modelJSON: nil, userInfo: [:])
    }

    var typeName: String { Self.typeName }
    var url: URL? { nil }
    var configurationName: String? { nil }
    var options: StoreOptions { StoreOptions() }
    var capabilities: StoreCapabilities { [] }
    /// The parent evaluates every predicate, in memory when its stores cannot.
    var predicateFeatures: PredicateFeatures { .all }

    func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        try parent.performAndWait { try parent.answerChildFetch(request) }
    }

    func snapshot(for objectID: ObjectID) throws -> Snapshot? {
        try parent.performAndWait { try parent.snapshotForChild(objectID) }
    }

    func snapshots(for objectIDs: [ObjectID]) throws -> [Snapshot] {
        try parent.performAndWait { try objectIDs.compactMap { try parent.snapshotForChild($0) } }
    }

    func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        try parent.performAndWait { try parent.membersForChild(of: objectID, relationship: relationship) }
    }

    func relatedObjectIDs(ofEach objectIDs: [ObjectID], relationship: String) throws -> [ObjectID: [ObjectID]] {
        try parent.performAndWait {
            try membersOfEach(objectIDs) { try parent.membersForChild(of: $0, relationship: relationship) }
        }
    }

    /// A child context's new objects keep their temporary IDs until the root context saves
    /// them, so a parent hands out no permanent IDs.
    func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID] {
        throw StoreError(
            code: .unsupported,
            message: "A parent context hands out no permanent IDs; its root context's stores do when it saves.")
    }

    func save(_ changes: StoreChangeSet) throws {
        try parent.performAndWait { try parent.acceptChildSave(changes) }
    }
}
