extension ManagedObjectContext {
    /// Applies another context's save (its ``ContextNotification/Kind/didSave`` notification):
    /// registered objects it updated are refreshed, keeping this context's own unsaved changes
    /// on top; objects it deleted become deleted and leave the context; pending changes to
    /// other objects are untouched. Posts objects-did-change for what changed.
    ///
    /// - Throws: the error reading a store gave.
    public func mergeChanges(fromContextDidSave notification: ContextNotification) throws {
        assertOnQueue()
        for id in notification.updatedObjectIDs {
            guard let object = registered[id] else { continue }
            if object.faulted {
                snapshotCache[id] = nil
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
}
