import OrderedCollections

/// Changes made to a to-many relationship whose members are not loaded, kept until they load
/// and then applied to them: changing the inverse side of an unloaded relationship (deleting a
/// child, moving it to another parent) costs no store read.
///
/// Applying the changes gives what making them on the loaded members would have given: removed
/// members go, added ones not already there join at the end, in the order they were added.
struct PendingMembers {
    /// The members added, in the order they were added.
    private var added: OrderedSet<ObjectID> = []
    /// The members removed.
    private var removed: Set<ObjectID> = []

    /// Adds `member` (at the end, when it is not a member yet).
    mutating func add(_ member: ObjectID) {
        added.append(member)
    }

    /// Removes `member`.
    mutating func remove(_ member: ObjectID) {
        added.remove(member)
        removed.insert(member)
    }

    /// `members` with the changes made.
    func applied(to members: [ObjectID]) -> OrderedSet<ObjectID> {
        var result = OrderedSet(members.filter { !removed.contains($0) })
        for member in added { result.append(member) }
        return result
    }

    /// The changes with the IDs `mapping` names replaced by the ones it gives.
    func remapped(_ mapping: [ObjectID: ObjectID]) -> PendingMembers {
        var remapped = PendingMembers()
        remapped.added = OrderedSet(added.map { mapping[$0] ?? $0 })
        remapped.removed = Set(removed.map { mapping[$0] ?? $0 })
        return remapped
    }

    /// Whether `mapping` names an ID the changes hold.
    func refers(to mapping: [ObjectID: ObjectID]) -> Bool {
        added.contains { mapping[$0] != nil } || removed.contains { mapping[$0] != nil }
    }
}
