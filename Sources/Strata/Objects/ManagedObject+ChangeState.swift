extension ManagedObject {
    /// Whether the object is new: inserted and not yet saved.
    public var isInserted: Bool {
        guard let context = managedObjectContext else { return false }
        context.applyAwaitingDeleteRulesIfPossible()
        return context.pendingInserts.contains(self)
    }

    /// Whether the object is saved and has unsaved changes (and is not deleted).
    public var isUpdated: Bool {
        guard let context = managedObjectContext else { return false }
        context.applyAwaitingDeleteRulesIfPossible()
        return context.pendingChanges.contains(self) && !context.pendingDeletions.contains(self) && hasPersistentChanges
    }

    /// Whether the object is deleted: marked for deletion in its context (by its own deletion
    /// or by a delete rule), or gone from its store.
    public var isDeleted: Bool {
        managedObjectContext?.applyAwaitingDeleteRulesIfPossible()
        return isMarkedDeleted
    }

    /// Whether the object is deleted as far as the deletions made so far go, delete rules still
    /// awaiting left aside.
    var isMarkedDeleted: Bool {
        isInaccessible || isDiscarded || (managedObjectContext?.pendingDeletions.contains(self) ?? false)
    }

    /// Whether the object's values are not loaded yet.
    public var isFault: Bool { faulted }

    /// Whether the object is inserted, deleted or changed.
    public var hasChanges: Bool {
        isInserted || isDeleted || (managedObjectContext?.pendingChanges.contains(self) ?? false)
    }

    /// The persistent attributes and to-one relationships whose values differ from the last
    /// saved ones, with their new values. To-one relationships appear as object IDs; transient
    /// properties, which no store keeps, are left out (as in Core Data).
    public func changedValues() -> [String: AttributeValue] {
        managedObjectContext?.applyAwaitingDeleteRulesIfPossible()
        return changedValuesIgnoringFaults(in: 0..<entity.persistentSlotCount)
    }

    /// The values of `keys` (every persistent attribute and to-one relationship when `nil`) as
    /// last loaded from or saved to the store; a new object has none, and transient properties
    /// have none.
    public func committedValues(forKeys keys: [String]? = nil) -> [String: AttributeValue] {
        managedObjectContext?.applyAwaitingDeleteRulesIfPossible()
        guard !committedValues.isEmpty else { return [:] }
        var values: [String: AttributeValue] = [:]
        for slot in 0..<entity.persistentSlotCount where keys?.contains(entity.slotNames[slot]) != false {
            values[entity.slotNames[slot]] = committedValues[slot]
        }
        return values
    }

    /// The changed values of the slots in `slots` (every slot, transient ones too, by default).
    func changedValuesIgnoringFaults(in slots: Range<Int>? = nil) -> [String: AttributeValue] {
        var changed: [String: AttributeValue] = [:]
        for slot in changedSlots(in: slots) { changed[entity.slotNames[slot]] = currentValues[slot] }
        return changed
    }

    /// The slots in `slots` (every slot by default) whose current value differs from the
    /// committed one; none while the object is a fault.
    func changedSlots(in slots: Range<Int>? = nil) -> [Int] {
        guard !faulted else { return [] }
        return (slots ?? 0..<currentValues.count).clamped(to: 0..<currentValues.count).filter(isChanged)
    }

    /// Whether the current value in `slot`, which the object holds, differs from the committed one.
    private func isChanged(_ slot: Int) -> Bool {
        currentValues[slot] != (slot < committedValues.count ? committedValues[slot] : .null)
    }

    /// Whether a value the store keeps (not a transient attribute) or a to-many membership
    /// changed.
    var hasPersistentChanges: Bool {
        if hasChangedMembers { return true }
        guard !faulted else { return false }
        let entity = entity
        // Transient to-one relationships count; transient attributes do not.
        return currentValues.indices.contains { slot in
            isChanged(slot)
                && (slot < entity.persistentSlotCount || entity.properties[entity.slotNames[slot]]?.kind == .toOne)
        }
    }

    /// Whether a to-many relationship's members changed: loaded ones, or ones with changes
    /// waiting for them to load.
    var hasChangedMembers: Bool {
        !pendingMembers.isEmpty || currentMembers.contains { key, members in committedMembers[key] != members }
    }

    /// The names of the changed to-many relationships.
    var changedMemberKeys: [String] {
        Set(currentMembers.keys.filter { committedMembers[$0] != currentMembers[$0] } + pendingMembers.keys).sorted()
    }
}

extension ManagedObjectContext {
    /// Records that `object` changed, for change tracking and objects-did-change.
    func noteChange(of object: ManagedObject) {
        guard !pendingInserts.contains(object) else {
            // A new object's changes are announced once its insertion has been, as in Core Data.
            if !unprocessedChanges.inserted.contains(object) { unprocessedChanges.updated.append(object) }
            return
        }
        graph.noteChanged(object)
        if !pendingDeletions.contains(object) { unprocessedChanges.updated.append(object) }
    }
}
