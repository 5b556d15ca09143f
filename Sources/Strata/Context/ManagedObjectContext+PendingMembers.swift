/// Changes to to-many relationships whose members are not loaded (``PendingMembers``): when a
/// context keeps them rather than loading the members, and how they meet the members.
extension ManagedObjectContext {
    /// Whether a change to the to-many `relationship` of `object` waits for its members to load
    /// rather than loading them now: they are not loaded, the object is saved (a new one has
    /// no stored members to load), and no undo manager needs the members before and after.
    func defersChanges(toMembersOf object: ManagedObject, _ relationship: RelationshipDescription) -> Bool {
        object.currentMembers[relationship.name] == nil && undoManager == nil && !object.objectID.isTemporary
            && !object.isInaccessible
    }

    /// Before a save writes anything: loads the values of changed objects that are still faults
    /// (one batch per store) and the members that changes wait for (one batch per
    /// relationship and store), so that every changed object holds its whole new state.
    ///
    /// - Throws: the error loading an object or its members gave.
    func loadObjectsWaitingForMembers() throws {
        let waiting = pendingChanges.filter { object in
            (object.faulted || !object.pendingMembers.isEmpty) && !pendingDeletions.contains(object)
        }
        guard !waiting.isEmpty else { return }
        prefetchSnapshots(for: waiting.filter(\.faulted).map(\.objectID))
        for object in waiting { try fulfill(object) }
        let keys = Set(waiting.flatMap(\.pendingMembers.keys))
        for key in keys.sorted() {
            try loadMembers(key, of: waiting.filter { $0.pendingMembers[key] != nil })
        }
        // What a batch did not load (an object another store or the parent holds alone) loads
        // one by one, reporting its own errors.
        for object in waiting {
            for key in object.pendingMembers.keys.sorted() {
                guard let relationship = object.entity.relationshipsByName[key] else { continue }
                _ = try members(of: object, relationship)
            }
        }
    }
}
