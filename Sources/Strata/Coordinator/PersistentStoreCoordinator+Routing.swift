extension PersistentStoreCoordinator {
    /// The added stores whose configuration holds `entityName`, in the order they were added.
    public func stores(forEntity entityName: String) -> [any IncrementalStore] {
        state.withLock { $0.stores.filter { $0.entityNames.contains(entityName) }.map(\.store) }
    }

    /// Whether `store` is added and its configuration holds `entityName`.
    func holds(_ store: any IncrementalStore, entityName: String) -> Bool {
        state.withLock { $0.stores.contains { $0.store === store && $0.entityNames.contains(entityName) } }
    }

    /// The added store that holds the saved object `objectID`.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unknownStore`` when the ID is
    ///   temporary or its store is not added.
    func store(for objectID: ObjectID) throws -> any IncrementalStore {
        guard let identifier = objectID.storeIdentifier, let store = store(withIdentifier: identifier) else {
            let reason =
                objectID.isTemporary
                ? "it is temporary (the object is not saved yet)"
                : "its store \(objectID.storeIdentifier ?? "") is not added to the coordinator"
            throw StoreError(code: .unknownStore, message: "No store holds \(objectID): \(reason).")
        }
        return store
    }
}
