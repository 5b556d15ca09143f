extension PersistentStoreCoordinator {
    /// Saves `changes` to the added store `store`: the way every change reaches a store.
    ///
    /// The coordinator makes the checks that do not depend on what the store holds, so that
    /// every store refuses the same changes with the same errors, before the store sees them:
    /// a read-only store is refused, and the changes are validated against the model and the
    /// store's configuration (``StoreChangeSet/validate(schema:entityNames:storeIdentifier:storeName:)``),
    /// which converts each value to its attribute's type.
    /// The store then checks versions against what it holds and writes, all or nothing. User
    /// keys that replace the store's keep ``stripedSaveKey``. The
    /// row cache then forgets the updated and deleted objects (the store may hold more than was
    /// written, such as values its triggers keep), so that they are read afresh; after a
    /// conflict it forgets the conflicting ones.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unknownStore`` when `store` is not
    ///   added, ``StoreError/Code/readOnly``, ``StoreError/Code/invalidChange`` or
    ///   ``StoreError/Code/unknownEntity`` naming the change, or whatever the store's save
    ///   throws (``StoreError/Code/conflict`` listing every stale object).
    public func save(_ changes: StoreChangeSet, to store: any IncrementalStore) throws {
        var changes = try checkedChanges(changes, for: store)
        do {
            try withWriteGates(of: [store]) {
                // Read under the gate, so that a save across stores cannot record a newer number between.
                if changes.userInfo != nil, changes.userInfo?[Self.stripedSaveKey] == nil,
                    let recorded = store.metadata.userInfo[Self.stripedSaveKey]
                {
                    changes.userInfo?[Self.stripedSaveKey] = recorded
                }
                try store.save(changes)
            }
        } catch let error as StoreError where error.code == .conflict {
            rowCache.remove(error.conflicts.map(\.objectID))
            throw error
        }
        rowCache.remove(changes.updated.map(\.objectID) + changes.deleted.map(\.objectID))
        announceWrite(to: store)
    }
}
