import Strata

/// Reads a store's objects entity by entity, not counting sub-entities.
struct StoreContents {
    let store: any IncrementalStore
    let schema: ModelSchema

    /// The entities the store holds, by name.
    var entityNames: [String] {
        let recorded = Set(store.metadata.versionHashes.keys)
        return schema.entities.map(\.name).filter { recorded.isEmpty || recorded.contains($0) }.sorted()
    }

    /// How many objects of exactly `entityName` the store holds.
    func count(of entityName: String) throws -> Int {
        let request = StoreFetchRequest(entityName: entityName, includesSubentities: false, resultType: .count)
        guard case .count(let count) = try store.execute(request) else {
            throw CommandFailure(description: "The store answered a count of '\(entityName)' with another result.")
        }
        return count
    }

    /// The snapshots of every object of exactly `entityName`.
    func snapshots(of entityName: String) throws -> [Snapshot] {
        let request = StoreFetchRequest(entityName: entityName, includesSubentities: false, resultType: .snapshots)
        guard case .snapshots(let snapshots) = try store.execute(request) else {
            throw CommandFailure(description: "The store answered a fetch of '\(entityName)' with another result.")
        }
        return snapshots
    }

    /// The members of every to-many relationship of `snapshot`'s entity, by relationship name.
    func toManyMembers(of snapshot: Snapshot, entity: EntitySchema) throws -> [String: [ObjectID]] {
        var members: [String: [ObjectID]] = [:]
        for relationship in entity.relationships where relationship.isToMany && !relationship.isTransient {
            members[relationship.name] = try store.relatedObjectIDs(
                of: snapshot.objectID, relationship: relationship.name)
        }
        return members
    }
}
