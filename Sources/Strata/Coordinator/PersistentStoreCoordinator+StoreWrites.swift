/// Announcing the writes a coordinator makes to its stores, to readers of the stores' history
/// such as a search index exporter.
extension PersistentStoreCoordinator {
    /// The identifier of a store each time this coordinator writes it: once per save that
    /// changes the store and once per batch request the store carries out itself, after the
    /// store has it. Each call makes a new sequence, which receives the writes from then on; it
    /// ends when its task is cancelled or the coordinator goes away.
    ///
    /// Saves that other coordinators and processes make are in ``remoteChanges``.
    ///
    /// ```swift
    /// for await storeIdentifier in coordinator.storeWrites {
    ///     print("saved to \(storeIdentifier)")
    /// }
    /// ```
    public var storeWrites: AsyncStream<String> { storeWriteBroadcast.stream() }

    /// Tells the listeners of ``storeWrites`` that `store` was written.
    func announceWrite(to store: any IncrementalStore) {
        storeWriteBroadcast.yield(store.identifier)
    }
}
