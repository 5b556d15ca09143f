import Foundation

/// Finding and announcing the saves other coordinators and processes make to the stores added
/// with ``StoreOptions/postsRemoteChangeNotifications`` (docs/HISTORY.md).
extension PersistentStoreCoordinator {
    /// The changes other coordinators and processes save to the stores added with
    /// ``StoreOptions/postsRemoteChangeNotifications``, as the coordinator finds them: within
    /// ``remoteChangeInterval`` of the save. Each call makes a new sequence, which receives the
    /// changes found from then on; it ends when its task is cancelled or the coordinator goes
    /// away.
    ///
    /// ```swift
    /// for await change in coordinator.remoteChanges {
    ///     print("\(change.transactions.count) transactions in \(change.storeIdentifier)")
    /// }
    /// ```
    ///
    /// Before a change is announced, the row cache forgets the objects it updated and deleted,
    /// and contexts with ``ManagedObjectContext/automaticallyMergesChangesFromParent`` merge it
    /// on their queues. Saves through this coordinator are never announced.
    public var remoteChanges: AsyncStream<RemoteStoreChange> {
        AsyncStream { continuation in
            let number = remoteChangeWatch.state.withLock { state in
                defer { state.nextListener += 1 }
                state.listeners[state.nextListener] = continuation
                return state.nextListener
            }
            continuation.onTermination = { [weak self] _ in
                self?.remoteChangeWatch.state.withLock { _ = $0.listeners.removeValue(forKey: number) }
            }
        }
    }

    /// How often the coordinator asks the watched stores whether others wrote them: 250
    /// milliseconds unless set. Asking costs one cheap read per store (SQLite's
    /// `PRAGMA data_version`, LMDB's last transaction ID) while nothing changes.
    public var remoteChangeInterval: Duration {
        get { remoteChangeWatch.state.withLock { $0.interval } }
        set { remoteChangeWatch.state.withLock { $0.interval = max(newValue, .milliseconds(1)) } }
    }

    /// Asks every watched store now whether others wrote it, and announces what they saved
    /// (``remoteChanges``) — what the coordinator's timer does every ``remoteChangeInterval``.
    ///
    /// - Throws: the first error a store gave; the other stores are asked all the same.
    public func checkForRemoteChanges() throws {
        var firstError: (any Error)?
        remoteChangeWatch.checking.withLock { _ in
            for store in watchedStores() {
                do {
                    try check(store)
                } catch {
                    firstError = firstError ?? error
                }
            }
        }
        if let firstError { throw firstError }
    }

    /// Starts watching `store`, which was just added with
    /// ``StoreOptions/postsRemoteChangeNotifications``, from its newest transaction.
    func startWatching(_ store: any IncrementalStore) throws {
        try remoteChangeWatch.checking.withLock { _ in try beginWatch(of: store) }
        let starts = remoteChangeWatch.state.withLock { state in
            defer { state.isPolling = true }
            return !state.isPolling
        }
        if starts { pollForRemoteChanges() }
    }

    /// The added stores that post remote changes, forgetting the history positions of the
    /// others.
    private func watchedStores() -> [any IncrementalStore] {
        let watched = stores.filter(\.options.postsRemoteChangeNotifications)
        let kept = Set(watched.map(ObjectIdentifier.init))
        remoteChangeWatch.state.withLock { state in
            state.lastNumbers = state.lastNumbers.filter { kept.contains($0.key) }
        }
        return watched
    }

    /// Records where `store`'s history ends, and lets the store note its commit counter.
    private func beginWatch(of store: any IncrementalStore) throws {
        let last = try store.lastHistoryToken()?.transactionNumber ?? 0
        _ = try store.remoteHistory(after: last)
        remoteChangeWatch.state.withLock { $0.lastNumbers[ObjectIdentifier(store)] = last }
    }

    /// Asks `store` for what others saved since the last check, and announces it.
    private func check(_ store: any IncrementalStore) throws {
        let key = ObjectIdentifier(store)
        guard let last = remoteChangeWatch.state.withLock({ $0.lastNumbers[key] }) else {
            return try beginWatch(of: store)
        }
        guard let found = try store.remoteHistory(after: last) else { return }
        remoteChangeWatch.state.withLock { $0.lastNumbers[key] = max(found.lastTransactionNumber, last) }
        guard let newest = found.transactions.last else { return }
        record(.remoteChangesMerged(storeType: store.typeName, transactions: found.transactions.count))
        announce(
            RemoteStoreChange(
                storeIdentifier: store.identifier, storeURL: store.url, historyToken: newest.token,
                transactions: found.transactions))
    }

    /// Forgets the cached rows `change` made stale, hands it to the merging contexts and to
    /// every listener.
    private func announce(_ change: RemoteStoreChange) {
        let notification = change.objectIDNotification()
        rowCache.remove(notification.updatedObjectIDs.union(notification.deletedObjectIDs))
        logger.debug(
            "Remote change found",
            metadata: ["store.identifier": "\(change.storeIdentifier)", "history.token": "\(change.historyToken)"])
        for context in contextsMergingSaves() {
            context.queue.async { context.mergeAutomatically(notification) }
        }
        let listeners = remoteChangeWatch.state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.yield(change) }
    }

    /// Runs the timer: checks every ``remoteChangeInterval`` until no added store posts remote
    /// changes or the coordinator goes away.
    private func pollForRemoteChanges() {
        Task.detached { [weak self] in
            while true {
                guard let interval = self?.remoteChangeInterval else { return }
                try? await Task.sleep(for: interval)
                guard let coordinator = self else { return }
                let watches = coordinator.stores.contains { $0.options.postsRemoteChangeNotifications }
                let goesOn = coordinator.remoteChangeWatch.state.withLock { state in
                    state.isPolling = watches
                    return watches
                }
                guard goesOn else { return }
                do {
                    try coordinator.checkForRemoteChanges()
                } catch {
                    coordinator.logger.warning(
                        "Looking for remote changes failed", metadata: ["error": "\(error)"])
                }
            }
        }
    }
}
