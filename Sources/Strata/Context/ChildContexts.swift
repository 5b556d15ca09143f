/// The child contexts of a context, held weakly, and which of them merge their parent's saves
/// automatically. Any queue may read and change it.
final class ChildContexts: Sendable {
    private struct Entry: Sendable {
        weak var context: ManagedObjectContext?
        var mergesSaves = false
    }

    private let entries = Locked<[ObjectIdentifier: Entry]>([:])

    /// Adds `child`, not merging saves.
    func add(_ child: ManagedObjectContext) {
        entries.withLock { entries in
            entries = entries.filter { $0.value.context != nil }
            entries[ObjectIdentifier(child)] = Entry(context: child)
        }
    }

    /// Records whether `child` merges its parent's saves automatically.
    func setMergesSaves(_ merges: Bool, for child: ManagedObjectContext) {
        entries.withLock { $0[ObjectIdentifier(child)]?.mergesSaves = merges }
    }

    /// The children that still exist.
    var all: [ManagedObjectContext] {
        entries.withLock { $0.values.compactMap(\.context) }
    }

    /// The children that merge their parent's saves automatically.
    var merging: [ManagedObjectContext] {
        entries.withLock { $0.values.filter(\.mergesSaves).compactMap(\.context) }
    }

    /// The children, their children, and so on.
    var descendants: [ManagedObjectContext] {
        all.flatMap { [$0] + $0.children.descendants }
    }
}
