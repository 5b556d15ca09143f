import Strata

extension LMDBStore {
    /// Runs `delete` in one write transaction with the delete rules a context applies
    /// (``StoreBatchDelete``): the matching or named records, the records the cascade rules
    /// reach, the deny rules checked against what stays, the nullify rules' changes to the
    /// records and member lists that stay (each changed object's version raised once), then
    /// the records, their index entries and their member lists removed, and, for a store
    /// recording persistent history, the transaction (tombstones included).
    public func executeBatchDelete(_ delete: StoreBatchDelete) throws -> StoreBatchDeleteResult? {
        let history = options.tracksPersistentHistory ? delete.history : nil
        guard !options.isReadOnly, history != nil || !options.tracksPersistentHistory else { return nil }
        do {
            return try recordedHistory.recording { note in
                try write("running a batch delete") { loader in
                    var deletion = LMDBBatchDeletion(store: self, loader: loader)
                    let matched = try deletion.seeds(delete.target)
                    try deletion.cascade(from: matched)
                    let denials = try deletion.denials()
                    guard denials.isEmpty else { throw RefusedDeletion(denials: denials) }
                    let nullified = try deletion.nullify()
                    let deleted = deletion.doomed.map(\.objectID)
                    for old in deletion.doomed { try remove(old, loader) }
                    if let history, let databases = databases.history, !deleted.isEmpty {
                        let changes = StoreChangeSet(
                            updated: nullified.map {
                                StoreChangeSet.ObjectChange(
                                    objectID: $0.objectID, values: [:], expectedVersion: 0,
                                    changedKeys: $0.relationships)
                            },
                            deleted: deleted.map { StoreChangeSet.Deletion(objectID: $0, expectedVersion: 0) },
                            history: history)
                        let stored = Dictionary(deletion.doomed.map { ($0.objectID, $0) }) { first, _ in first }
                        let number = try recordHistory(
                            of: changes, stored: stored, history: databases, in: loader.transaction)
                        note(number)
                    }
                    guard delete.listsObjectIDs else { return StoreBatchDeleteResult(matchedCount: matched.count) }
                    return StoreBatchDeleteResult(
                        matched: matched.map(\.objectID), deleted: deleted, updated: nullified.map(\.objectID))
                }
            }
        } catch let refused as RefusedDeletion {
            return StoreBatchDeleteResult(denials: refused.denials)
        }
    }
}

/// Rolls back a batch deletion that deny rules refuse.
private struct RefusedDeletion: Error {
    let denials: [StoreBatchDeleteResult.Denial]
}

/// The objects one batch deletion removes and changes, worked out in its write transaction.
private struct LMDBBatchDeletion {
    let store: LMDBStore
    let loader: LMDBObjectLoader
    /// The objects to delete, in the order they were reached.
    private(set) var doomed: [Snapshot] = []
    private var doomedIDs: Set<ObjectID> = []

    init(store: LMDBStore, loader: LMDBObjectLoader) {
        self.store = store
        self.loader = loader
    }

    /// The stored objects `target` names or matches, marked for deletion.
    mutating func seeds(_ target: StoreBatchDelete.Target) throws -> [Snapshot] {
        let found: [Snapshot]
        switch target {
        case .matching(let entityName, let includesSubentities, let predicate):
            found = try store.matches(
                StoreFetchRequest(
                    entityName: entityName, includesSubentities: includesSubentities, predicate: predicate,
                    resultType: .snapshots),
                loader)
        case .objects(let objectIDs):
            found = try objectIDs.map { objectID in
                guard let snapshot = try loader.snapshot(of: objectID) else {
                    throw StoreError(
                        code: .unknownObject, message: "\(store.storeName) holds no object \(objectID) to delete.")
                }
                return snapshot
            }
        }
        var matched: [Snapshot] = []
        for snapshot in found where doomedIDs.insert(snapshot.objectID).inserted {
            doomed.append(snapshot)
            matched.append(snapshot)
        }
        return matched
    }

    /// Marks the destinations of the cascade rules of `objects`, and of those they reach.
    mutating func cascade(from objects: [Snapshot]) throws {
        var pending = objects
        while let object = pending.popLast() {
            for relationship in try relationships(of: object) where relationship.deleteRule == .cascade {
                for destination in try destinations(of: object, relationship) where !doomedIDs.contains(destination) {
                    guard let snapshot = try loader.snapshot(of: destination) else { continue }
                    doomedIDs.insert(destination)
                    doomed.append(snapshot)
                    pending.append(snapshot)
                }
            }
        }
    }

    /// The deny rules of the marked objects that still hold an object that stays.
    func denials() throws -> [StoreBatchDeleteResult.Denial] {
        var denials: [StoreBatchDeleteResult.Denial] = []
        for object in doomed {
            for relationship in try relationships(of: object) where relationship.deleteRule == .deny {
                let staying = try destinations(of: object, relationship).filter { destination in
                    try !doomedIDs.contains(destination) && loader.snapshot(of: destination) != nil
                }
                guard let first = staying.first else { continue }
                denials.append(
                    StoreBatchDeleteResult.Denial(
                        objectID: object.objectID, relationship: relationship.name, destination: first,
                        remainingCount: staying.count))
            }
        }
        return denials
    }

    /// Removes the marked objects from the inverse relationships of the objects that stay, as
    /// the nullify rules say, writing each changed object once with its version raised; returns
    /// the changed objects with the relationships changed in each.
    func nullify() throws -> [(objectID: ObjectID, relationships: Set<String>)] {
        var changed: [ObjectID: Snapshot] = [:]
        var changedRelationships: [ObjectID: Set<String>] = [:]
        var order: [ObjectID] = []
        var members: [ObjectID: [String: [ObjectID]]] = [:]
        for object in doomed {
            for relationship in try relationships(of: object) where relationship.deleteRule == .nullify {
                guard let inverseName = relationship.inverseName else { continue }
                for destination in try destinations(of: object, relationship) where !doomedIDs.contains(destination) {
                    guard var snapshot = try changed[destination] ?? loader.snapshot(of: destination),
                        let inverse = store.model.entitiesByName[destination.entityName]?
                            .relationshipsByName[inverseName]
                    else { continue }
                    if inverse.isToMany {
                        let current =
                            try members[destination]?[inverseName]
                            ?? loader.members(of: destination, relationship: inverseName)
                        members[destination, default: [:]][inverseName] = current.filter { $0 != object.objectID }
                    } else if snapshot.values[inverseName] == .objectID(object.objectID) {
                        snapshot.values[inverseName] = .null
                    }
                    if changed[destination] == nil { order.append(destination) }
                    changed[destination] = snapshot
                    changedRelationships[destination, default: []].insert(inverseName)
                }
            }
        }
        for objectID in order {
            guard let new = changed[objectID], let old = try loader.snapshot(of: objectID) else { continue }
            let version = try StoredCounter.next(after: old.version, "The version of \(objectID) in \(store.storeName)")
            try store.put(Snapshot(objectID: objectID, values: new.values, version: version), replacing: old, loader)
            for (relationship, list) in members[objectID] ?? [:] {
                guard let key = loader.membersKey(of: objectID, relationship: relationship) else { continue }
                if list.isEmpty {
                    _ = try loader.transaction.delete(store.databases.toMany, key)
                } else {
                    try loader.transaction.put(store.databases.toMany, key, store.layout.encode(members: list))
                }
            }
        }
        return order.map { ($0, changedRelationships[$0] ?? []) }
    }

    private func relationships(of object: Snapshot) throws -> [RelationshipDescription] {
        guard let entity = store.model.entitiesByName[object.objectID.entityName] else {
            throw StoreError(
                code: .corrupt, message: "\(store.storeName) holds \(object.objectID) of an unknown entity.")
        }
        return entity.relationships.filter { !$0.isTransient }
    }

    /// The objects `relationship` of `object` holds now.
    private func destinations(of object: Snapshot, _ relationship: RelationshipDescription) throws -> [ObjectID] {
        if relationship.isToMany { return try loader.members(of: object.objectID, relationship: relationship.name) }
        guard case .objectID(let destination)? = object.values[relationship.name] else { return [] }
        return [destination]
    }
}
