/// A context the coordinator tells about other contexts' saves, held weakly so that it can go away.
struct WeakContext: Sendable {
    weak var context: ManagedObjectContext?
}

extension PersistentStoreCoordinator {
    /// Adds `context` to, or removes it from, the contexts told about other contexts' saves.
    func setMergesSaves(_ merges: Bool, for context: ManagedObjectContext) {
        mergingContexts.withLock { contexts in
            contexts[ObjectIdentifier(context)] = merges ? WeakContext(context: context) : nil
        }
    }

    /// The contexts that merge saves automatically, forgetting those that went away.
    func contextsMergingSaves() -> [ManagedObjectContext] {
        mergingContexts.withLock { contexts in
            contexts = contexts.filter { $0.value.context != nil }
            return contexts.values.compactMap(\.context)
        }
    }
}
