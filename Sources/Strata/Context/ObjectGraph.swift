/// The objects of one context and what is pending for them: the registry (one object per ID),
/// the new, changed and deleted objects in the order they became so, the new objects deleted
/// before they were saved, and the snapshots fetched ahead of the faults that will use them.
///
/// It is the only owner of that state: its collections change here and nowhere else, and each
/// object's own state changes through the transitions of ``ObjectState``. The context sequences
/// them (a deletion marks the object, applies its rules, then discards it) and adds what its
/// users see: the queue, notifications, undo and merging. Used on its context's queue only.
final class ObjectGraph {
    /// Every object of the context, one per ID.
    private(set) var registered: [ObjectID: ManagedObject] = [:]
    /// New objects deleted before they were saved; they leave the context when its pending
    /// changes are next processed.
    private(set) var discarded: [ManagedObject] = []
    /// Snapshots fetched ahead of the objects that will use them.
    private(set) var snapshots: [ObjectID: Snapshot] = [:]
    private let inserts = PendingObjects(.inserted)
    private let changes = PendingObjects(.changed)
    private let deletions = PendingObjects(.deleted)

    /// New objects, in insertion order.
    var pendingInserts: PendingObjectsView { inserts.view }
    /// Saved objects with changes, in the order they were first changed.
    var pendingChanges: PendingObjectsView { changes.view }
    /// Saved objects marked for deletion, in order.
    var pendingDeletions: PendingObjectsView { deletions.view }

    // MARK: Registry

    /// Registers `object` under its ID (a fault, or an object coming back).
    func register(_ object: ManagedObject) { registered[object.objectID] = object }

    /// Makes room in the registry for `count` more objects (a fetch about to register them).
    func reserveCapacity(forMore count: Int) { registered.reserveCapacity(registered.count + count) }

    /// Registers the new `object` and lists it as inserted.
    func insert(_ object: ManagedObject) {
        registered[object.objectID] = object
        inserts.append(object)
    }

    /// Takes `object` out of every list, the registry and the snapshots: it leaves the context
    /// (saved as deleted, merged into another, vanished from its store).
    func remove(_ object: ManagedObject) {
        inserts.remove(object)
        changes.remove(object)
        deletions.remove(object)
        if registered[object.objectID] === object { registered[object.objectID] = nil }
        snapshots[object.objectID] = nil
    }

    /// Registers the objects under the new IDs `mapping` gives them, and gives them those IDs.
    /// When most registered objects get one (a save of many new objects), the registry is
    /// built afresh: removing entries one by one from a large dictionary costs more than
    /// inserting them all again.
    func reregister(_ mapping: [ObjectID: ObjectID]) {
        if mapping.count * 2 >= registered.count {
            var renamed: [ObjectID: ManagedObject] = [:]
            renamed.reserveCapacity(registered.count)
            for object in registered.values {
                if let new = mapping[object.objectID] { object.rename(to: new) }
                renamed[object.objectID] = object
            }
            registered = renamed
            return
        }
        for (old, new) in mapping {
            guard let object = registered.removeValue(forKey: old) else { continue }
            object.rename(to: new)
            registered[new] = object
        }
    }

    /// Forgets every object, list and snapshot (a reset).
    func removeAll() {
        registered.removeAll()
        discarded.removeAll()
        inserts.removeAll()
        changes.removeAll()
        deletions.removeAll()
        snapshots.removeAll()
    }

    // MARK: Pending lists

    /// Lists the saved `object` as changed; whether it was not listed already.
    @discardableResult
    func noteChanged(_ object: ManagedObject) -> Bool { changes.append(object) }

    /// Takes `objects` out of the changed ones.
    func forgetChanges(of objects: some Sequence<ManagedObject>) { changes.subtract(objects) }

    /// Lists the saved `object` as deleted.
    func markDeleted(_ object: ManagedObject) { deletions.append(object) }

    /// Takes `object` out of the deleted ones; whether it was listed.
    @discardableResult
    func unmarkDeleted(_ object: ManagedObject) -> Bool { deletions.remove(object) }

    /// Takes `object` out of the new ones (deleted, or now a change of a saved object).
    func uninsert(_ object: ManagedObject) { inserts.remove(object) }

    /// Takes the new `object`, deleted before it was saved, out of the registry; it leaves
    /// the context when ``releaseDiscarded()`` next runs.
    func discard(_ object: ManagedObject) {
        inserts.remove(object)
        registered[object.objectID] = nil
        discarded.append(object)
    }

    /// Keeps the discarded `object` from leaving (its deletion was undone).
    func keep(_ object: ManagedObject) { discarded.removeAll { $0 === object } }

    /// The discarded objects, now that they leave the context.
    func releaseDiscarded() -> [ManagedObject] {
        defer { discarded.removeAll() }
        return discarded
    }

    /// Forgets that the saved `objects` changed: they are written.
    func settleSaved(_ objects: [ManagedObject]) {
        inserts.subtract(objects)
        changes.subtract(objects)
        for object in objects { snapshots[object.objectID] = nil }
    }

    /// Empties every pending list (a rollback); the registry keeps its objects.
    func removeAllPending() {
        inserts.removeAll()
        changes.removeAll()
        deletions.removeAll()
    }

    /// Empties the list of changed objects (a save wrote them all).
    func removeAllChanges() { changes.removeAll() }

    // MARK: Snapshots

    /// Keeps `snapshot` for the fault that will use it.
    func cache(_ snapshot: Snapshot) { snapshots[snapshot.objectID] = snapshot }

    /// The snapshot kept for `objectID`, which is no longer kept.
    func takeSnapshot(of objectID: ObjectID) -> Snapshot? { snapshots.removeValue(forKey: objectID) }

    /// Forgets the snapshot kept for `objectID`.
    func dropSnapshot(of objectID: ObjectID) { snapshots[objectID] = nil }

    /// Replaces the IDs that `mapping` names in the kept snapshots, keys and values.
    func remapSnapshots(_ mapping: [ObjectID: ObjectID]) {
        var remapped: [ObjectID: Snapshot] = [:]
        for (id, snapshot) in snapshots {
            let newID = mapping[id] ?? id
            remapped[newID] = Snapshot(
                objectID: newID, values: snapshot.values.remapped(mapping), version: snapshot.version)
        }
        snapshots = remapped
    }

    // MARK: Invariants

    /// Stops a debug build when the lists and the registry disagree: each list's marks match
    /// its storage, no object is both new and deleted, every listed object is registered
    /// under its ID, and no discarded object is.
    func assertConsistent() {
        #if DEBUG
            for list in [inserts, changes, deletions] { list.assertConsistent() }
            for object in inserts {
                precondition(!deletions.contains(object), "\(object.objectID) is both inserted and deleted.")
            }
            for list in [inserts, changes, deletions] {
                for object in list {
                    precondition(
                        registered[object.objectID] === object, "\(object.objectID) is pending, not registered.")
                }
            }
            for object in discarded {
                precondition(
                    object.isDiscarded && registered[object.objectID] !== object,
                    "\(object.objectID) is discarded and still registered.")
            }
        #endif
    }
}
