import Strata

/// Loads the objects the core's evaluator reaches through relationships while a fetch tests
/// the part of its predicate that SQL does not, on the fetch's connection, each object once.
final class PostgresObjectLoader {
    let store: PostgresStore
    let connection: PostgresConnection
    private var loaded: [ObjectID: Snapshot?] = [:]
    /// The first error met, which the fetch throws once the evaluator returns (the evaluator's
    /// key lookups cannot throw).
    private var error: (any Error)?

    init(store: PostgresStore, connection: PostgresConnection) {
        self.store = store
        self.connection = connection
    }

    func snapshot(of objectID: ObjectID) -> Snapshot? {
        if let known = loaded[objectID] { return known }
        let snapshot = attempt(nil) { try store.snapshot(for: objectID, on: connection) }
        loaded[objectID] = snapshot
        return snapshot
    }

    func members(of objectID: ObjectID, relationship: String) -> [any KeyValueResolving] {
        let members = attempt([]) { try store.members(of: objectID, relationship: relationship, on: connection) }
        return members.compactMap(resolver(of:))
    }

    /// What the evaluator reads for `objectID`: its row, or a `ForeignObjectReference` when it
    /// is another store's object; `nil` when it is gone.
    func resolver(of objectID: ObjectID) -> (any KeyValueResolving)? {
        if objectID.storeIdentifier != store.identifier { return ForeignObjectReference(objectID) }
        return snapshot(of: objectID).map { PostgresObjectResolver(snapshot: $0, loader: self) }
    }

    /// Throws the first error a load met.
    func rethrow() throws {
        if let error { throw error }
    }

    private func attempt<T>(_ fallback: T, _ body: () throws -> T) -> T {
        do { return try body() } catch {
            if self.error == nil { self.error = error }
            return fallback
        }
    }
}

/// A stored object as the core's evaluator and sort descriptors see it.
struct PostgresObjectResolver: KeyValueResolving {
    let snapshot: Snapshot
    let loader: PostgresObjectLoader

    func resolvedValue(forKey key: String) -> ResolvedValue? {
        guard let entity = loader.store.model.entitiesByName[snapshot.objectID.entityName] else { return nil }
        if let relationship = entity.relationshipsByName[key] {
            if relationship.isToMany {
                return .objects(loader.members(of: snapshot.objectID, relationship: key))
            }
            guard case .objectID(let target)? = snapshot.values[key], let destination = loader.resolver(of: target)
            else { return .value(.null) }
            return .object(destination)
        }
        guard entity.attributesByName[key] != nil else { return nil }
        return .value(snapshot.values[key] ?? .null)
    }

    var objectIdentity: AttributeValue { .objectID(snapshot.objectID) }
}
