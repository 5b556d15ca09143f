/// A store's read view pinned to one committed state: what a context pinned to a query
/// generation reads instead of the store itself (``IncrementalStore/openGeneration()``).
///
/// Obligations of a store author, with the conformance checks that enforce them:
/// - Every read answers exactly as the store's own read of the same name would have answered
///   when the generation was opened, whatever the store, another coordinator or another
///   process saves since. Checks: `Q.fetchUnchangedAfterOtherSave`,
///   `Q.countUnchangedAfterOtherSave`, `Q.faultOfDeletedObjectFires`,
///   `Q.toManyUnchangedAfterOtherSave`.
/// - The view holds what it needs (a read transaction) while the object lives, and lets it go
///   when the object is released; a view that can no longer read (its store was closed, or it
///   outlived a limit the store documents) fails with
///   ``StoreError/Code/generationUnavailable``, never with a newer state.
/// - It is `Sendable` and safe to call from several threads; the calls may be serialised.
public protocol StoreGeneration: AnyObject, Sendable {
    /// Runs a fetch against the pinned state, as ``IncrementalStore/execute(_:)``.
    func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult

    /// The pinned state of `objectID`, as ``IncrementalStore/snapshot(for:)``.
    func snapshot(for objectID: ObjectID) throws -> Snapshot?

    /// The pinned states of those of `objectIDs` the store had, as
    /// ``IncrementalStore/snapshots(for:)``. The default asks ``snapshot(for:)`` for each.
    func snapshots(for objectIDs: [ObjectID]) throws -> [Snapshot]

    /// The pinned members of the to-many `relationship` of `objectID`, as
    /// ``IncrementalStore/relatedObjectIDs(of:relationship:)``.
    func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID]

    /// The pinned members of the to-many `relationship` of each of `objectIDs`, as
    /// ``IncrementalStore/relatedObjectIDs(ofEach:relationship:)``. The default asks
    /// ``relatedObjectIDs(of:relationship:)`` for each.
    func relatedObjectIDs(ofEach objectIDs: [ObjectID], relationship: String) throws -> [ObjectID: [ObjectID]]
}

extension StoreGeneration {
    /// Asks ``snapshot(for:)`` for each of `objectIDs`.
    public func snapshots(for objectIDs: [ObjectID]) throws -> [Snapshot] {
        try objectIDs.compactMap { try snapshot(for: $0) }
    }

    /// Asks ``relatedObjectIDs(of:relationship:)`` for each of `objectIDs`.
    public func relatedObjectIDs(ofEach objectIDs: [ObjectID], relationship: String) throws -> [ObjectID: [ObjectID]] {
        try membersOfEach(objectIDs) { try relatedObjectIDs(of: $0, relationship: relationship) }
    }
}

/// The members `load` gives for each of `objectIDs`, by owner: the batched to-many load of a
/// store or view that loads one owner at a time.
func membersOfEach(
    _ objectIDs: [ObjectID], _ load: (ObjectID) throws -> [ObjectID]
) rethrows -> [ObjectID: [ObjectID]] {
    var members: [ObjectID: [ObjectID]] = [:]
    for objectID in objectIDs { members[objectID] = try load(objectID) }
    return members
}
