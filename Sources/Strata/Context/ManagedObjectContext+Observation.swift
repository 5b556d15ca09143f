extension ManagedObjectContext {
    /// The results of `request` as they change: the first update holds the current results;
    /// each later one the results after a change of the context (an insert, change, deletion,
    /// refresh, save or merge touching the fetched entities), with the inserts, deletes,
    /// updates and moves that lead there. With `sectionKeyPath`, results are grouped into
    /// sections of equal values, in the fetch's order (sort by the section key path first).
    ///
    /// The Linux counterpart of a fetched-results controller: a server or command-line tool
    /// can keep a live view of a fetch from any task.
    ///
    /// ```swift
    /// var request = FetchRequest<City>()
    /// request.sortDescriptors = [FetchSortDescriptor("country.name"), FetchSortDescriptor("name")]
    /// for try await update in context.results(of: request, sectionKeyPath: "country.name") {
    ///     for change in update.changes { print(change.kind, change.objectID) }
    /// }
    /// ```
    ///
    /// The sequence ends when the task iterating it is cancelled or the context goes away; it
    /// throws the error a fetch gave (``ContextError/Code/unknownEntity`` for an entity the
    /// model lacks).
    public func results<Result>(
        of request: FetchRequest<Result>, sectionKeyPath: String? = nil
    ) -> AsyncThrowingStream<FetchedResultsUpdate, any Error> {
        results(of: request, sectionKeyPath: sectionKeyPath, buffering: .unbounded)
    }

    /// ``results(of:sectionKeyPath:)``, keeping updates as `buffering` says.
    func results<Result>(
        of request: FetchRequest<Result>, sectionKeyPath: String? = nil,
        buffering: AsyncThrowingStream<FetchedResultsUpdate, any Error>.Continuation.BufferingPolicy
    ) -> AsyncThrowingStream<FetchedResultsUpdate, any Error> {
        let (stream, continuation) = AsyncThrowingStream<FetchedResultsUpdate, any Error>.makeStream(
            bufferingPolicy: buffering)
        queue.async { [self] in
            do {
                let tracker = try FetchedResultsTracker(context: self, request: request, sectionKeyPath: sectionKeyPath)
                continuation.yield(try tracker.start())
                // A save moves nothing, but gives new objects their permanent IDs.
                let stop = observeChangesAndSaves { changes in
                    do {
                        if let update = try tracker.update(after: changes) { continuation.yield(update) }
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in stop() }
            } catch {
                continuation.finish(throwing: error)
            }
        }
        return stream
    }

    /// What happens to the saved object `objectID` in this context, as it happens: changes,
    /// refreshes, saves and deletion. The sequence ends when the object leaves the context
    /// (its deletion is saved, or another context's merged save deleted it), or when the task
    /// iterating it is cancelled.
    public func changes(of objectID: ObjectID) -> AsyncStream<ObjectChange> {
        let (stream, continuation) = AsyncStream<ObjectChange>.makeStream()
        queue.async { [self] in
            let stop = observeChangesAndSaves { [unowned self] changes in
                let notification = changes.notification
                let happened: ObjectChange.Kind? =
                    if notification.deletedObjectIDs.contains(objectID) {
                        .deleted
                    } else if notification.updatedObjectIDs.contains(objectID) {
                        changes.kind == .didSave ? .saved : .changed
                    } else if notification.refreshedObjectIDs.contains(objectID) {
                        .refreshed
                    } else {
                        nil
                    }
                guard let happened else { return }
                continuation.yield(ObjectChange(kind: happened, objectID: objectID))
                if happened == .deleted, registeredObject(for: objectID) == nil { continuation.finish() }
            }
            continuation.onTermination = { _ in stop() }
        }
        return stream
    }

    /// Calls `handler` on the queue for objects-did-change and did-save, and returns what stops
    /// it again, from any thread.
    private func observeChangesAndSaves(_ handler: @escaping (ContextChanges) -> Void) -> @Sendable () -> Void {
        let tokens = [ContextNotification.Kind.objectsDidChange, .didSave].map { addObserver(for: $0, handler) }
        return { [weak self] in
            guard let context = self else { return }
            context.queue.async { tokens.forEach(context.removeObserver) }
        }
    }
}
