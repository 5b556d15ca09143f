import OrderedCollections

/// What a managed object holds for its context's object graph: its ID, its context, its
/// values and to-many members as loaded and now, and its place in the context's pending lists.
///
/// Every field is written in this file only, by the named transitions below; the rest of
/// Strata reads them (through ``ManagedObject``'s read-only accessors) and asks for a
/// transition. The context's registry and pending lists, which hold the objects, belong to
/// ``ObjectGraph``.
struct ObjectState {
    /// The object's ID: temporary until the object is first saved.
    fileprivate(set) var objectID: ObjectID
    /// The context the object belongs to; `nil` once it is deleted and saved, or its context reset.
    fileprivate(set) weak var context: ManagedObjectContext?
    /// Whether the values are not loaded yet.
    fileprivate(set) var faulted = true
    /// Persistent attributes and to-one IDs as last loaded or saved, by slot
    /// (``EntitySchema/slotNames``; transient slots `null`); empty while the object is new or a
    /// fault.
    fileprivate(set) var committedValues: [AttributeValue] = []
    /// The stored version the committed values belong to; 0 while the object is new.
    fileprivate(set) var committedVersion: Int64 = 0
    /// Every attribute (transient ones too) and to-one ID as the object holds them now, by
    /// slot; empty while the object is a fault.
    fileprivate(set) var currentValues: [AttributeValue] = []
    /// The members of each loaded to-many relationship as last loaded or saved.
    fileprivate(set) var committedMembers: [String: OrderedSet<ObjectID>] = [:]
    /// The members of each loaded to-many relationship now.
    fileprivate(set) var currentMembers: [String: OrderedSet<ObjectID>] = [:]
    /// Changes to to-many relationships whose members are not loaded, applied when they load.
    fileprivate(set) var pendingMembers: [String: PendingMembers] = [:]
    /// The store the context was told to save the object in, if any.
    fileprivate(set) var assignedStore: (any IncrementalStore)?
    /// Set when the object's record vanished and the context deleted the object to match.
    fileprivate(set) var isInaccessible = false
    /// Set when the context deleted the object before it was ever saved: it is simply dropped.
    fileprivate(set) var isDiscarded = false
    /// Which of its context's lists of pending objects hold the object (``PendingObjects``).
    fileprivate(set) var pendingMarks: PendingMarks = []

    init(objectID: ObjectID, context: ManagedObjectContext?) {
        self.objectID = objectID
        self.context = context
    }

    /// Adds `marks` to the object's pending marks (``PendingObjects``).
    mutating func insertPendingMarks(_ marks: PendingMarks) { pendingMarks.insert(marks) }

    /// Takes `marks` out of the object's pending marks (``PendingObjects``).
    mutating func removePendingMarks(_ marks: PendingMarks) { pendingMarks.remove(marks) }
}

extension ManagedObject {
    /// The object's ID: temporary until the object is first saved.
    public var objectID: ObjectID { state.objectID }
    /// The context the object belongs to; `nil` once it is deleted and saved, or its context reset.
    public var managedObjectContext: ManagedObjectContext? { state.context }
    /// Whether the values are not loaded yet.
    var faulted: Bool { state.faulted }
    /// Persistent attributes and to-one IDs as last loaded or saved, by slot.
    var committedValues: [AttributeValue] { state.committedValues }
    /// The stored version the committed values belong to; 0 while the object is new.
    var committedVersion: Int64 { state.committedVersion }
    /// Every attribute and to-one ID as the object holds them now, by slot.
    var currentValues: [AttributeValue] { state.currentValues }
    /// The members of each loaded to-many relationship as last loaded or saved.
    var committedMembers: [String: OrderedSet<ObjectID>] { state.committedMembers }
    /// The members of each loaded to-many relationship now.
    var currentMembers: [String: OrderedSet<ObjectID>] { state.currentMembers }
    /// Changes to to-many relationships whose members are not loaded.
    var pendingMembers: [String: PendingMembers] { state.pendingMembers }
    /// The store the context was told to save the object in, if any.
    var assignedStore: (any IncrementalStore)? { state.assignedStore }
    /// Whether the object's record vanished and the context deleted the object to match.
    var isInaccessible: Bool { state.isInaccessible }
    /// Whether the context deleted the object before it was ever saved.
    var isDiscarded: Bool { state.isDiscarded }
    /// Which of its context's lists of pending objects hold the object.
    var pendingMarks: PendingMarks { state.pendingMarks }
}

// MARK: - Values

extension ManagedObject {
    /// Stores `value` in `slot` of the current values, giving the object a slot for every
    /// property first if it holds none.
    func setCurrentValue(_ value: AttributeValue, atSlot slot: Int) {
        if state.currentValues.isEmpty { state.currentValues = Self.emptySlots(of: entity) }
        guard let observation else {
            state.currentValues[slot] = value
            return
        }
        observation.announceChange(of: self, key: entity.slotNames[slot]) { state.currentValues[slot] = value }
    }

    /// Makes the object a new one holding its entity's default values.
    func becomeNew() {
        state.faulted = false
        // Shared until the first change copies it.
        state.currentValues = entity.defaultSlots
    }

    /// Makes the object a new one holding the persistent values `pushed` (by slot) and the
    /// to-many `members` a child context saved, defaults in its transient slots.
    func becomeNew(holding pushed: [AttributeValue], members: [String: [ObjectID]]) {
        state.faulted = false
        state.currentValues = entity.defaultSlots
        for slot in 0..<entity.persistentSlotCount { state.currentValues[slot] = pushed[slot] }
        for (key, members) in members { state.currentMembers[key] = .init(members) }
    }

    /// Fills the object with `snapshot`, keeping any changes it holds; returns whether it was
    /// a fault.
    func fill(from snapshot: Snapshot) -> Bool {
        let wasFault = state.faulted
        let changes = changedSlots().map { ($0, state.currentValues[$0]) }
        let committed = Self.slots(of: entity, from: snapshot.values)
        var current = committed
        for slot in entity.persistentSlotCount..<entity.slotNames.count { current[slot] = entity.defaultSlots[slot] }
        for (slot, value) in changes { current[slot] = value }
        state.committedValues = committed
        state.committedVersion = snapshot.version
        state.currentValues = current
        state.faulted = false
        return wasFault
    }

    /// Takes the store's `stored` values as the committed ones and `current` as the values now.
    func takeStoredValues(_ stored: [AttributeValue], version: Int64, current: [AttributeValue]) {
        state.committedValues = stored
        state.committedVersion = version
        state.currentValues = current
    }

    /// Gives the persistent slots back their committed values, keeping the transient ones.
    func revertPersistentValues() {
        for slot in 0..<entity.persistentSlotCount { state.currentValues[slot] = state.committedValues[slot] }
    }

    /// Makes `values` the values now, by slot.
    func replaceCurrentValues(_ values: [AttributeValue]) { state.currentValues = values }

    /// Records that the stored object is at `version`, its values left as they are.
    func adoptStoredVersion(_ version: Int64) { state.committedVersion = version }

    /// Makes the values and members now the saved ones, one version on.
    func becomeSaved() {
        // Stores refuse to update an object whose version is at its limit
        // (StoreChangeSet.checkVersions); a store that skips the check makes the next save meet
        // a conflict, not this arithmetic trap.
        state.committedVersion &+= 1
        state.committedValues = state.currentValues
        for (key, members) in state.currentMembers { state.committedMembers[key] = members }
    }

    /// Drops every unsaved change: the values and members go back to the last saved ones.
    func revertToCommitted() {
        state.currentValues = state.committedValues
        state.currentMembers = state.committedMembers
        state.pendingMembers = [:]
    }

    /// Forgets the saved state of an object whose deletion was saved and which is inserted
    /// anew: it holds its values now and every to-many's members, as a new object does.
    func forgetSavedState() {
        state.committedValues = []
        state.committedVersion = 0
        state.committedMembers = [:]
        for relationship in entity.relationships where relationship.isToMany {
            if state.currentMembers[relationship.name] == nil { state.currentMembers[relationship.name] = [] }
        }
    }
}

// MARK: - Members

extension ManagedObject {
    /// Replaces the members of the to-many relationship `key`, announcing it to observers.
    func setCurrentMembers(_ members: OrderedSet<ObjectID>, forKey key: String) {
        announcingChange(ofKey: key) { state.currentMembers[key] = members }
    }

    /// Replaces the members of the to-many relationship `key` without announcing it.
    func replaceCurrentMembers(_ members: OrderedSet<ObjectID>?, forKey key: String) {
        state.currentMembers[key] = members
    }

    /// Makes `members` the saved members of `key`, and `current` its members now.
    func setMembers(committed members: OrderedSet<ObjectID>?, current: OrderedSet<ObjectID>?, forKey key: String) {
        state.committedMembers[key] = members
        state.currentMembers[key] = current
    }

    /// Records `members` as the saved members of `key`, leaving its members now alone.
    func setCommittedMembers(_ members: OrderedSet<ObjectID>, forKey key: String) {
        state.committedMembers[key] = members
    }

    /// Makes `members`, as the store holds them, the loaded members of `key`, with the changes
    /// waiting for them made; returns the members now.
    @discardableResult
    func setLoadedMembers(_ members: [ObjectID], forKey key: String) -> OrderedSet<ObjectID> {
        let loaded = OrderedSet(members)
        let current = state.pendingMembers.removeValue(forKey: key)?.applied(to: members) ?? loaded
        state.committedMembers[key] = loaded
        state.currentMembers[key] = current
        return current
    }

    /// Keeps, until the members of `key` load, that `member` joins them.
    func addPendingMember(_ member: ObjectID, forKey key: String) {
        state.pendingMembers[key, default: PendingMembers()].add(member)
    }

    /// Keeps, until the members of `key` load, that `member` leaves them.
    func removePendingMember(_ member: ObjectID, forKey key: String) {
        state.pendingMembers[key, default: PendingMembers()].remove(member)
    }

    /// Replaces the IDs in relationships that `mapping` names with the ones it gives; whether
    /// any was replaced.
    @discardableResult
    func remapReferences(_ mapping: [ObjectID: ObjectID]) -> Bool {
        var replaced = false
        // A fault (with member changes waiting) has no values.
        for slot in entity.objectIDSlots where slot < state.currentValues.count {
            guard case .objectID(let id) = state.currentValues[slot], let new = mapping[id] else { continue }
            state.currentValues[slot] = .objectID(new)
            replaced = true
        }
        for (key, members) in state.currentMembers where members.contains(where: { mapping[$0] != nil }) {
            state.currentMembers[key] = .init(members.map { mapping[$0] ?? $0 })
            replaced = true
        }
        for (key, changes) in state.pendingMembers where changes.refers(to: mapping) {
            state.pendingMembers[key] = changes.remapped(mapping)
            replaced = true
        }
        return replaced
    }

    /// Replaces the IDs that `mapping` names in the values and members as last saved.
    func remapCommittedReferences(_ mapping: [ObjectID: ObjectID]) {
        state.committedValues = state.committedValues.remapped(mapping)
        for (key, members) in state.committedMembers where members.contains(where: { mapping[$0] != nil }) {
            state.committedMembers[key] = .init(members.map { mapping[$0] ?? $0 })
        }
    }
}

// MARK: - Faults, deletion and membership of a context

extension ManagedObject {
    /// Drops the object's values and loaded to-many members, changes included, so that its
    /// next use loads them again; an inaccessible object is no longer marked so.
    func turnIntoFault() {
        state.faulted = true
        state.committedValues = []
        dropValuesAndMembers()
        state.isInaccessible = false
        fetchedPropertyResults = [:]
    }

    /// Marks an object whose record vanished as deleted, with no values.
    func becomeInaccessible() {
        state.isInaccessible = true
        state.faulted = false
        state.committedValues = []
        dropValuesAndMembers()
    }

    private func dropValuesAndMembers() {
        state.currentValues = []
        state.committedMembers = [:]
        state.currentMembers = [:]
        state.pendingMembers = [:]
    }

    /// Marks a new object deleted before it was saved (`true`), or brought back (`false`).
    func setDiscarded(_ discarded: Bool) { state.isDiscarded = discarded }

    /// Makes the next save put the object in `store`.
    func assign(to store: any IncrementalStore) { state.assignedStore = store }

    /// Gives the object the ID `objectID` (a permanent one, or the saved object it merged into).
    func rename(to objectID: ObjectID) { state.objectID = objectID }

    /// Makes the object `context`'s again.
    func join(_ context: ManagedObjectContext) { state.context = context }

    /// Takes the object out of its context, leaving its values.
    func leaveContext() { state.context = nil }

    /// Takes the object out of its context as a reset does: it holds no values or members.
    func leaveContextClearingValues() {
        state.context = nil
        dropValuesAndMembers()
        fetchedPropertyResults = [:]
    }
}
