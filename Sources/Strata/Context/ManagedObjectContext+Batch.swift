/// Batch requests from a context, and bringing their changes into contexts.
extension ManagedObjectContext {
    /// Runs `request` on the context's coordinator, recorded in persistent history with the
    /// context's ``transactionAuthor`` and name. The context itself is untouched: bring the
    /// result's ``BatchResult/changes`` in with
    /// ``mergeChanges(fromRemoteContextSave:into:)``. Throws as the coordinator's
    /// `execute(_:)` does.
    public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
        try coordinator.execute(request, author: transactionAuthor, contextName: name)
    }

    /// Runs `request` on the context's coordinator; as the batch deletion.
    public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
        try coordinator.execute(request, author: transactionAuthor, contextName: name)
    }

    /// Runs `request` on the context's coordinator; as the batch deletion.
    public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
        try coordinator.execute(request, author: transactionAuthor, contextName: name)
    }

    /// Brings changes saved elsewhere (a batch request's ``BatchResult/changes``, another
    /// process's save) into each of `contexts`, on its own queue, as
    /// ``mergeChanges(fromContextDidSave:)`` does: registered objects that were updated are
    /// refreshed (keeping each context's unsaved changes on top), deleted ones leave the
    /// context, and objects-did-change is posted. The coordinators' caches forget the updated
    /// and deleted objects first, so that they are read afresh.
    ///
    /// - Throws: the first error reading a store gave.
    public static func mergeChanges(
        fromRemoteContextSave changes: ContextNotification, into contexts: [ManagedObjectContext]
    ) throws {
        let stale = Array(changes.updatedObjectIDs.union(changes.deletedObjectIDs))
        for context in contexts {
            context.coordinator.rowCache.remove(stale)
            try context.performAndWait { try context.mergeChanges(fromContextDidSave: changes) }
        }
    }
}
