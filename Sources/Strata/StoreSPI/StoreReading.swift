/// The five reads a context makes of a store: what a store (``IncrementalStore``) answers for its
/// latest state and a query generation's view (``StoreGeneration``) for the state it is pinned to.
public protocol StoreReading: AnyObject, Sendable {
    /// Runs a fetch.
    func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult

    /// The saved state of `objectID`; `nil` when there is none.
    func snapshot(for objectID: ObjectID) throws -> Snapshot?

    /// The members of the to-many `relationship` of `objectID`.
    func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID]

    /// The saved states of those of `objectIDs` there are, in any order: what a context loads
    /// for a batch of a batched fetch or for prefetching. A store that can read many rows in
    /// one go implements it; the default asks ``snapshot(for:)`` for each.
    func snapshots(for objectIDs: [ObjectID]) throws -> [Snapshot]

    /// The members of the to-many `relationship` of each of `objectIDs`, as
    /// ``relatedObjectIDs(of:relationship:)`` gives them: what a context loads when it
    /// prefetches a relationship. The default asks ``relatedObjectIDs(of:relationship:)`` for each.
    func relatedObjectIDs(ofEach objectIDs: [ObjectID], relationship: String) throws -> [ObjectID: [ObjectID]]
}

extension StoreReading {
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
