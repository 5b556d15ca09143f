/// Which of a context's lists of pending objects an object belongs to, kept in the object so
/// that asking costs a bit test instead of hashing it.
struct PendingMarks: OptionSet {
    let rawValue: UInt16

    /// The mark of membership, and the mark of having an entry (possibly a stale one) in the
    /// list's storage, of `list`.
    static func marks(of list: PendingObjects.List) -> (member: PendingMarks, entry: PendingMarks) {
        let shift = 2 * list.rawValue
        return (PendingMarks(rawValue: 1 << shift), PendingMarks(rawValue: 1 << (shift + 1)))
    }
}

/// One of a context's lists of pending objects (the inserted ones, say), in the order they
/// joined it. Each member carries the list's mark, so that ``contains(_:)`` and joining again
/// hash nothing; an object that leaves keeps its place in the storage, as a stale entry, until
/// stale entries outnumber members, so that leaving one by one is not quadratic.
///
/// Used on its context's queue only, like the objects it holds. An object belongs to one
/// context, so its marks describe that context's lists.
final class PendingObjects: Sequence {
    /// The lists a context keeps; each has its own pair of marks.
    enum List: UInt16 {
        case inserted, changed, deleted, unprocessedInserted, unprocessedUpdated
    }

    private var storage: [ManagedObject] = []
    private var staleCount = 0
    private let member: PendingMarks
    private let entry: PendingMarks

    init(_ list: List) {
        (member, entry) = PendingMarks.marks(of: list)
    }

    var isEmpty: Bool { storage.count == staleCount }

    var count: Int { storage.count - staleCount }

    /// The members, in the order they joined: a copy that later changes to the list leave alone.
    var elements: [ManagedObject] {
        staleCount == 0 ? storage : storage.filter { $0.pendingMarks.contains(member) }
    }

    func makeIterator() -> IndexingIterator<[ManagedObject]> { elements.makeIterator() }

    /// Whether `object` is a member. O(1), without hashing.
    func contains(_ object: ManagedObject) -> Bool { object.pendingMarks.contains(member) }

    /// Adds `object` at the end, unless it is a member already (an object that left and joins
    /// again before its stale entry is dropped takes that entry's place). Returns whether it
    /// was added.
    @discardableResult
    func append(_ object: ManagedObject) -> Bool {
        guard !object.pendingMarks.contains(member) else { return false }
        object.state.insertPendingMarks(member)
        if object.pendingMarks.contains(entry) {
            staleCount -= 1
        } else {
            object.state.insertPendingMarks(entry)
            storage.append(object)
        }
        return true
    }

    /// Takes `object` out; returns whether it was a member.
    @discardableResult
    func remove(_ object: ManagedObject) -> Bool {
        guard object.pendingMarks.contains(member) else { return false }
        object.state.removePendingMarks(member)
        staleCount += 1
        if staleCount > 32, staleCount * 2 > storage.count { dropStaleEntries() }
        return true
    }

    /// Takes every object of `objects` out.
    func subtract(_ objects: some Sequence<ManagedObject>) {
        for object in objects { remove(object) }
    }

    /// Takes every member out.
    func removeAll() {
        for object in storage { object.state.removePendingMarks([member, entry]) }
        storage = []
        staleCount = 0
    }

    private func dropStaleEntries() {
        let (member, entry) = (member, entry)
        storage.removeAll { object in
            guard !object.pendingMarks.contains(member) else { return false }
            object.state.removePendingMarks(entry)
            return true
        }
        staleCount = 0
    }

    /// Stops a debug build when the marks and the storage disagree: every entry carries the
    /// entry mark once, and the members are the marked entries.
    func assertConsistent() {
        #if DEBUG
            let members = storage.filter { $0.pendingMarks.contains(member) }.count
            precondition(storage.allSatisfy { $0.pendingMarks.contains(entry) }, "A pending entry lost its mark.")
            precondition(
                Set(storage.map(ObjectIdentifier.init)).count == storage.count, "A pending object is listed twice.")
            precondition(members == storage.count - staleCount, "The pending objects' count is off.")
        #endif
    }
}

/// A list of pending objects as code outside the list's owner sees it: it asks about
/// membership and reads the members, and changes nothing.
struct PendingObjectsView: Sequence {
    fileprivate let list: PendingObjects

    var isEmpty: Bool { list.isEmpty }

    var count: Int { list.count }

    /// The members, in the order they joined.
    var elements: [ManagedObject] { list.elements }

    func makeIterator() -> IndexingIterator<[ManagedObject]> { list.makeIterator() }

    /// Whether `object` is a member. O(1), without hashing.
    func contains(_ object: ManagedObject) -> Bool { list.contains(object) }
}

extension PendingObjects {
    /// The list, read-only.
    var view: PendingObjectsView { PendingObjectsView(list: self) }
}
