extension ManagedObjectContext {
    /// Applies another context's save (its ``ContextNotification/Kind/didSave`` notification):
    /// registered objects it updated are refreshed, keeping this context's own unsaved changes
    /// on top; objects it deleted become deleted and leave the context; pending changes to
    /// other objects are untouched. Posts objects-did-change for what changed. A pinned context
    /// moves to the newest query generation first.
    ///
    /// - Throws: the error reading a store gave.
    public func mergeChanges(fromContextDidSave notification: ContextNotification) throws {
        assertOnQueue()
        advanceQueryGeneration()
        for id in notification.updatedObjectIDs {
            guard let object = registered[id] else { continue }
            if object.faulted {
                graph.dropSnapshot(of: id)
            } else {
                try refresh(object, mergeChanges: true)
            }
        }
        for id in notification.deletedObjectIDs {
            guard let object = registered[id] else { continue }
            dropVanished(object)
        }
        processPendingChanges()
    }

    /// Applies a transaction of a store's persistent history, as
    /// ``mergeChanges(fromContextDidSave:)`` applies a save: registered objects it updated are
    /// refreshed, objects it deleted leave the context. Fetch the transaction with its changes
    /// (``PersistentHistoryRequest/ResultType/transactionsAndChanges``).
    ///
    /// - Throws: the error reading a store gave.
    public func mergeChanges(fromHistoryTransaction transaction: PersistentHistoryTransaction) throws {
        try mergeChanges(fromContextDidSave: transaction.objectIDNotification())
    }

    /// Applies another context's save for ``automaticallyMergesChangesFromParent``. When a
    /// store cannot be read, the objects it could not refresh are turned into faults (unless
    /// they have unsaved changes), so that their next use reads the store again.
    func mergeAutomatically(_ notification: ContextNotification) {
        do {
            try mergeChanges(fromContextDidSave: notification)
        } catch {
            for id in notification.updatedObjectIDs {
                guard let object = registered[id], !object.hasChanges else { continue }
                try? refresh(object, mergeChanges: false)
            }
            processPendingChanges()
        }
    }
}
