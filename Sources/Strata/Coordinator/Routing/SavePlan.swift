/// How one save splits across stores, as a context's ``StoreRouter`` plans it once: which
/// store each pending object of the context's ``ObjectGraph`` goes to, and whether every
/// reference from one store to another may be kept, checked before anything is written.
struct SavePlan {
    /// One store's part of a save.
    final class Share {
        let store: any IncrementalStore
        var inserted: [ManagedObject] = []
        var updated: [ManagedObject] = []
        var deleted: [ManagedObject] = []
        /// The IDs the inserted objects had before ``SavePlan/assignPermanentIDs()``.
        var temporaryIDs: [ObjectID] = []

        init(store: any IncrementalStore) { self.store = store }

        /// The share's changes, recorded in history as made by `history`.
        func changeSet(history: StoreChangeSet.HistoryInfo? = nil) -> StoreChangeSet {
            StoreChangeSet(
                inserted: inserted.map { object in
                    .init(
                        objectID: object.objectID, values: object.persistentValues,
                        toManyRelationships: object.persistentMembers(changedOnly: false), expectedVersion: 0)
                },
                updated: updated.map { object in
                    let members = object.persistentMembers(changedOnly: true)
                    return .init(
                        objectID: object.objectID, values: object.persistentValues, toManyRelationships: members,
                        expectedVersion: object.committedVersion,
                        changedKeys: Set(
                            object.changedSlots(in: 0..<object.entity.persistentSlotCount).map {
                                object.entity.slotNames[$0]
                            }
                        ).union(members.keys))
                },
                deleted: deleted.map { .init(objectID: $0.objectID, expectedVersion: $0.committedVersion) },
                history: history)
        }
    }

    let graph: ObjectGraph
    let router: StoreRouter
    private(set) var shares: [Share] = []

    /// Places every pending object of `graph` in a store.
    ///
    /// - Throws: ``ContextError/Code/noStore`` or ``ContextError/Code/crossStoreRelationship``.
    init(_ graph: ObjectGraph, router: StoreRouter) throws {
        self.graph = graph
        self.router = router
        for object in graph.pendingInserts {
            share(for: try router.placement(of: object)).inserted.append(object)
        }
        for object in graph.pendingChanges where object.isUpdated {
            share(for: try router.store(for: object.objectID)).updated.append(object)
        }
        // A child context's deletions of its parent's new objects go to the parent too.
        for object in graph.pendingDeletions where !object.objectID.isTemporary || router.routesToParent {
            share(for: try router.store(for: object.objectID)).deleted.append(object)
        }
        // With one store, no relationship can cross stores.
        guard router.spansStores else { return }
        for share in shares {
            for object in share.inserted + share.updated { try checkSameStore(object, share.store) }
        }
    }

    /// Gives every new object a permanent ID from its store, and rewrites the references other
    /// objects hold to it. A child context's new objects keep their temporary IDs: they get
    /// permanent ones when the root context saves them to a store.
    func assignPermanentIDs() throws {
        guard !router.routesToParent else { return }
        var mapping: [ObjectID: ObjectID] = [:]
        mapping.reserveCapacity(shares.reduce(0) { $0 + $1.inserted.count })
        for share in shares where !share.inserted.isEmpty {
            let permanent = try share.store.permanentIDs(forEntities: share.inserted.map(\.entity.name))
            share.temporaryIDs = share.inserted.map(\.objectID)
            for (object, id) in zip(share.inserted, permanent) { mapping[object.objectID] = id }
        }
        // Only an object with unsaved changes can refer to a new object: setting a reference
        // makes an object changed, what stores hold has no temporary IDs, and giving temporary
        // IDs back after a failed save notes every object that then refers to one.
        let changed = graph.pendingInserts.elements + graph.pendingChanges.elements
        remap(mapping, in: changed + graph.pendingDeletions.elements)
    }

    /// Gives the new objects of `share`, which was not written, their temporary IDs back: they
    /// are still unsaved, and the next save gives them permanent IDs afresh. An object another
    /// store already saved may refer to them (through a transient relationship): it is noted
    /// as changed (the caller notes the objects returned), so that the next save gives it
    /// their new IDs too.
    func restoreTemporaryIDs(of share: Share) -> [ManagedObject] {
        let mapping = Dictionary(uniqueKeysWithValues: zip(share.inserted.map(\.objectID), share.temporaryIDs))
        guard !mapping.isEmpty else { return [] }
        var referring: [ManagedObject] = []
        for object in graph.registered.values where !object.faulted {
            guard object.remapReferences(mapping) else { continue }
            let isPending =
                graph.pendingInserts.contains(object) || graph.pendingChanges.contains(object)
                || graph.pendingDeletions.contains(object)
            if !isPending { referring.append(object) }
        }
        graph.reregister(mapping)
        return referring
    }

    /// Changes the IDs of registered objects as `mapping` says, and the references `objects`
    /// hold to them.
    private func remap(_ mapping: [ObjectID: ObjectID], in objects: some Sequence<ManagedObject>) {
        guard !mapping.isEmpty else { return }
        for object in objects where !object.faulted { object.remapReferences(mapping) }
        graph.reregister(mapping)
    }

    private mutating func share(for store: any IncrementalStore) -> Share {
        if let existing = shares.first(where: { $0.store === store }) { return existing }
        let share = Share(store: store)
        shares.append(share)
        return share
    }

    /// Refuses a relationship from `object` (in `store`) to an object of another store, unless
    /// the relationship leads out of `store`'s configuration and both stores keep references
    /// across stores (``StoreCapabilities/crossStoreRelationships``).
    private func checkSameStore(_ object: ManagedObject, _ store: any IncrementalStore) throws {
        for relationship in object.entity.relationships where !relationship.isTransient {
            let targets: [ObjectID] =
                relationship.isToMany
                ? (object.currentMembers[relationship.name]?.elements ?? [])
                : (object.currentValue(forKey: relationship.name)?.objectIDValue).map { [$0] } ?? []
            for target in targets {
                let targetObject = graph.registered[target]
                let targetStore: (any IncrementalStore)?
                if let targetObject, graph.pendingInserts.contains(targetObject) {
                    targetStore = try? router.placement(of: targetObject)
                } else {
                    targetStore = try? router.store(for: target)
                }
                guard let targetStore, targetStore !== store else { continue }
                let lacking = [store, targetStore].first { !$0.capabilities.contains(.crossStoreRelationships) }
                let leavesConfiguration = !router.holds(store, entityName: target.entityName)
                guard lacking != nil || !leavesConfiguration else { continue }
                let reason =
                    lacking.map { "the \($0.typeName) store \($0.identifier) keeps no references across stores" }
                    ?? "the store's configuration holds entity '\(target.entityName)' too, so the relationship "
                    + "stays inside the store"
                throw ContextError(
                    code: .crossStoreRelationship,
                    message: "\(object.objectID) (in the \(store.typeName) store \(store.identifier)) cannot relate "
                        + "to \(target) (in the \(targetStore.typeName) store \(targetStore.identifier)) through "
                        + "'\(object.entity.name).\(relationship.name)': \(reason).")
            }
        }
    }
}

extension ManagedObject {
    /// The members of to-many relationships to save: all of them for a new object, the changed
    /// ones otherwise.
    func persistentMembers(changedOnly: Bool) -> [String: [ObjectID]] {
        var members: [String: [ObjectID]] = [:]
        for relationship in entity.relationships where relationship.isToMany && !relationship.isTransient {
            let current = currentMembers[relationship.name]
            if changedOnly {
                guard let current, current != committedMembers[relationship.name] else { continue }
                members[relationship.name] = current.elements
            } else {
                members[relationship.name] = current?.elements ?? []
            }
        }
        return members
    }
}
