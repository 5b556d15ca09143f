import Synchronization

/// A context's saved objects deleted before their values or to-many members were loaded, whose
/// delete rules wait to apply together (``ManagedObjectContext/applyAwaitingDeleteRules()``).
///
/// It counts, across the process, the contexts that hold any: while none does (nearly always),
/// reading a loaded object's values need not touch its context to apply waiting rules, and
/// skips loading the weak reference to it, which costs more than the read.
struct DeletesAwaitingRules: RandomAccessCollection {
    private static let contextsHoldingSome = Atomic<Int>(0)

    /// Whether any context of the process holds objects whose delete rules wait.
    static var anyContextHoldsSome: Bool { contextsHoldingSome.load(ordering: .relaxed) > 0 }

    private var objects: [ManagedObject] = []

    var startIndex: Int { objects.startIndex }
    var endIndex: Int { objects.endIndex }
    subscript(position: Int) -> ManagedObject { objects[position] }

    /// Adds `object`, whose rules wait.
    mutating func append(_ object: ManagedObject) {
        if objects.isEmpty { Self.contextsHoldingSome.add(1, ordering: .relaxed) }
        objects.append(object)
    }

    /// Removes the first `count` objects, whose rules applied.
    mutating func removeFirst(_ count: Int) {
        guard count > 0 else { return }
        objects.removeFirst(count)
        if objects.isEmpty { Self.contextsHoldingSome.subtract(1, ordering: .relaxed) }
    }

    /// Forgets every object without applying its rules: for a context going away.
    mutating func removeAll() {
        removeFirst(objects.count)
    }
}
