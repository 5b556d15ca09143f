extension ManagedObjectContext {
    /// Creates a child context of `parent`: its fetches and faults see the parent's state,
    /// unsaved changes included, and ``save()`` hands its changes to the parent (not to the
    /// stores) as one change of the parent's. The child keeps its parent alive; the parent
    /// holds its children weakly. Its ``coordinator`` is its root context's.
    ///
    /// The child reaches its parent only through the parent's ``performAndWait(_:)``, so do
    /// not use a child from inside a block on its parent's (or an ancestor's) queue, nor call
    /// the child's ``performAndWait(_:)`` on the main thread when an ancestor is a main-queue
    /// context (use ``perform(_:)`` there): the child would wait for a queue its caller holds.
    ///
    /// ```swift
    /// let editor = ManagedObjectContext(parent: viewContext, name: "editor")
    /// try await editor.perform {
    ///     let book = try editor.existingObject(with: bookID)
    ///     try book.setValue("Dune Messiah", forKey: "title")
    ///     try editor.save()  // viewContext now has the change, unsaved
    /// }
    /// ```
    public convenience init(
        parent: ManagedObjectContext, concurrencyType: ConcurrencyType = .privateQueue, name: String? = nil
    ) {
        self.init(coordinator: parent.coordinator, parent: parent, concurrencyType: concurrencyType, name: name)
        parent.children.add(self)
    }

    /// The context this one saves into, when it is a child context; `nil` for a context that
    /// saves to its coordinator's stores.
    public var parent: ManagedObjectContext? { parentStore?.parent }

    /// Keeps `snapshots`, read from `store`, in the coordinator's shared cache; a child
    /// context's snapshots hold its parent's unsaved values, which other contexts must not see,
    /// so it keeps none there, nor does a context reading a query generation (its snapshots
    /// may be older than the cache's), and a store that keeps its snapshots in memory needs
    /// none there.
    func shareSnapshots(_ snapshots: [Snapshot], from store: any IncrementalStore) {
        guard parent == nil, !readsQueryGeneration, !store.keepsSnapshotsInMemory else { return }
        coordinator.rowCache.store(snapshots.suffix(coordinator.rowCache.capacity))
    }

    /// Starts or stops merging saves automatically: a child context merges its parent's and
    /// its siblings' saves, another context those of the other contexts on its coordinator.
    func subscribeToSaves(_ merges: Bool) {
        if let parent {
            parent.children.setMergesSaves(merges, for: self)
        } else {
            coordinator.setMergesSaves(merges, for: self)
        }
    }

    /// The contexts that merge this context's saves automatically: the other contexts on the
    /// coordinator (for a save to the stores) or the siblings (for a save into the parent), and
    /// this context's children.
    var saveMergers: [ManagedObjectContext] {
        let others = parent.map { $0.children.merging } ?? coordinator.contextsMergingSaves()
        return others.filter { $0 !== self } + children.merging
    }
}
