extension ManagedObjectContext {
    /// Calls `handler` on the context's queue each time the context posts a notification of
    /// `kind`, until ``removeObserver(_:)``.
    ///
    /// Call it on the context's queue.
    @discardableResult
    public func addObserver(
        for kind: ContextNotification.Kind, _ handler: @escaping (ContextChanges) -> Void
    ) -> ObserverToken {
        assertOnQueue()
        return observers.add(kind: kind, handler: handler)
    }

    /// Stops calling the observer `token` names.
    public func removeObserver(_ token: ObserverToken) {
        assertOnQueue()
        observers.remove(token)
    }

    /// The context's notifications of `kinds`, by object ID, as an asynchronous sequence that
    /// any task can iterate; it ends when the context goes away.
    public func notifications(
        of kinds: Set<ContextNotification.Kind> = [.objectsDidChange, .willSave, .didSave]
    ) -> AsyncStream<ContextNotification> {
        observers.streams.stream(of: kinds)
    }

    /// Posts objects-did-change for the inserts, changes and deletions since the last one, and
    /// lets go of new objects that were deleted before being saved. A context does this when
    /// each perform block ends and before it saves; call it to do it sooner.
    public func processPendingChanges() {
        assertOnQueue()
        assertPendingListsConsistent()
        for object in graph.releaseDiscarded() { object.leaveContext() }
        guard !unprocessedChanges.isEmpty else { return }
        let changes = unprocessedChanges.take()
        announceObservedChanges(changes)
        post(changes, as: .objectsDidChange)
    }

    /// Stops a debug build when a list of pending objects disagrees with its objects' marks.
    func assertPendingListsConsistent() {
        graph.assertConsistent()
        unprocessedChanges.inserted.assertConsistent()
        unprocessedChanges.updated.assertConsistent()
    }

    /// Posts `changes` to the context's observers and streams and, for did-save, hands them to
    /// the contexts that merge the context's saves, each on its own queue. With no one to tell,
    /// the notification is not built.
    func post(_ changes: ObjectChanges, as kind: ContextNotification.Kind) {
        let mergers = kind == .didSave ? saveMergers : []
        guard observers.isObserving(kind) || !mergers.isEmpty else { return }
        let posted = changes.changes(kind: kind, contextName: name)
        observers.post(posted)
        let notification = posted.notification
        for merger in mergers {
            merger.queue.async { merger.mergeAutomatically(notification) }
        }
    }
}
