import Strata

/// The objects of a store as the in-memory evaluator sees them during one read: snapshots
/// and relationships are loaded on `connection` when a key path first reaches them, and kept
/// for the rest of the read.
///
/// The evaluator's protocol cannot throw, so the first load that fails is kept and
/// ``throwFirstError()`` reports it once evaluation is done.
final class SQLiteObjectGraph {
    private let store: SQLiteStore
    private let connection: SQLiteConnection
    private var snapshots: [ObjectID: Snapshot?] = [:]
    private var members: [ObjectID: [String: [ObjectID]]] = [:]
    private var firstError: (any Error)?

    init(store: SQLiteStore, connection: SQLiteConnection) {
        self.store = store
        self.connection = connection
    }

    /// An evaluable object for `snapshot`.
    func resolver(for snapshot: Snapshot) -> Resolver {
        snapshots[snapshot.objectID] = snapshot
        return Resolver(snapshot: snapshot, graph: self)
    }

    /// Throws the first error a load met, if any.
    func throwFirstError() throws {
        if let firstError { throw firstError }
    }

    /// What the evaluator reads for `objectID`: its row, or a `ForeignObjectReference` when it
    /// is another store's object; `nil` when it is gone.
    fileprivate func object(_ objectID: ObjectID) -> (any KeyValueResolving)? {
        if objectID.storeIdentifier != store.identifier { return ForeignObjectReference(objectID) }
        if let cached = snapshots[objectID] { return cached.map { Resolver(snapshot: $0, graph: self) } }
        do {
            let snapshot = try store.loadSnapshot(objectID, on: connection)
            snapshots[objectID] = snapshot
            return snapshot.map { Resolver(snapshot: $0, graph: self) }
        } catch {
            firstError = firstError ?? error
            return nil
        }
    }

    fileprivate func members(of objectID: ObjectID, relationship: RelationshipDescription, in entity: EntitySchema)
        -> [any KeyValueResolving]
    {
        if let cached = members[objectID]?[relationship.name] { return cached.compactMap(object) }
        do {
            let ids = try store.loadMembers(of: objectID, relationship: relationship, in: entity, on: connection)
            members[objectID, default: [:]][relationship.name] = ids
            return ids.compactMap(object)
        } catch {
            firstError = firstError ?? error
            return []
        }
    }

    /// One stored object, answering the evaluator from its snapshot and the graph.
    struct Resolver: KeyValueResolving {
        let snapshot: Snapshot
        fileprivate let graph: SQLiteObjectGraph

        func resolvedValue(forKey key: String) -> ResolvedValue? {
            guard let entity = graph.store.model.entitiesByName[snapshot.objectID.entityName] else { return nil }
            if let relationship = entity.relationshipsByName[key] {
                if relationship.isToMany {
                    return .objects(graph.members(of: snapshot.objectID, relationship: relationship, in: entity))
                }
                guard case .objectID(let target)? = snapshot.values[key], let object = graph.object(target) else {
                    return .value(.null)
                }
                return .object(object)
            }
            guard entity.attributesByName[key] != nil else { return nil }
            return .value(snapshot.values[key] ?? .null)
        }

        var objectIdentity: AttributeValue { .objectID(snapshot.objectID) }
    }
}
