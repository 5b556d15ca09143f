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

    /// Hands the did-save `notification` of `sender` to every other context that merges saves
    /// automatically, each on its own queue.
    func broadcast(_ notification: ContextNotification, from sender: ManagedObjectContext) {
        let receivers = mergingContexts.withLock { contexts in
            contexts = contexts.filter { $0.value.context != nil }
            return contexts.values.compactMap(\.context).filter { $0 !== sender }
        }
        for receiver in receivers {
            receiver.queue.async { receiver.mergeAutomatically(notification) }
        }
    }
}
