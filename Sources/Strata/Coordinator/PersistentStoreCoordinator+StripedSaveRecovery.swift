import Foundation

extension PersistentStoreCoordinator {
    /// Completes the striped saves the log beside `store` holds that `store` has not applied:
    /// what a kill between the stores' commits left (docs/STRIPED-SAVES.md). Runs before the
    /// store is added, so no other save reaches it first. The logs beside the stores already
    /// added are read too, and their entries applied to `store` and to them: a save across
    /// folders that one folder's log could not take back is decided in another's.
    ///
    /// A read-only store cannot take them: the coordinator logs a warning and adds it as it is.
    ///
    /// - Throws: ``StoreError`` naming the log and the save when the store refuses the save's
    ///   changes (another writer changed the same objects since), or the log cannot be read.
    func completeStripedSaves(of store: any IncrementalStore) throws {
        guard !store.isInMemoryOnly else { return }
        let added = stores.filter { !$0.options.isReadOnly && !$0.isInMemoryOnly }
        let waiting = try preparedChanges(of: [store] + added)
        let folders = ([store] + added).compactMap(\.folder).filter { folder in
            StripedSaveLog.mayHoldEntries(folder: folder)
                || waiting.contains { $0.anchorFolder.map(StripedSaveLog.key(of:)) == StripedSaveLog.key(of: folder) }
        }
        for unfinished in waiting where unfinished.anchorFolder == nil {
            logger.warning(
                """
                A store keeps changes prepared for a save across stores whose log is beside a store not added; \
                add that store to finish them (until then they hold their objects' locks)
                """,
                metadata: Self.logMetadata(of: unfinished.store).merging(
                    ["prepared": "\(unfinished.name)"]) { a, _ in a })
        }
        guard !folders.isEmpty else { return }
        // The write gates before the logs' locks, in the order a save across stores takes them.
        try withWriteGates(of: [store] + added, added: false) {
            let logs = try StripedSaveLog.lockAll(folders: folders)
            guard !store.options.isReadOnly else {
                let pending = try logs.contains { log in
                    try log.entries(schema: schema).contains {
                        $0.changes(forStore: store.identifier) != nil && Self.recordedSave(of: store) < $0.number
                    }
                }
                if pending {
                    logger.warning(
                        "A read-only store misses a save across stores that a save log holds; open it writable to complete it",
                        metadata: Self.logMetadata(of: store).merging(
                            ["logs": "\(logs.map(\.url.path))"]) { a, _ in a })
                }
                return
            }
            try completePendingSaves(in: logs, forAdded: [store] + added)
            for log in logs {
                try log.clearIfApplied(schema: schema) { try hasApplied($0, storeWith: $1, among: stores + [store]) }
            }
        }
    }

    /// Applies every entry of `logs` to those of `stores` that it names and that have not
    /// recorded it, oldest first across the logs, after finishing the changes that stores among
    /// `stores` prepared for saves decided (or not) in `logs`. The caller holds the stores'
    /// write gates.
    func completePendingSaves(in logs: [StripedSaveLog], forAdded stores: [any IncrementalStore]) throws {
        let logged = try logs.flatMap { log in try log.entries(schema: schema).map { (log: log, entry: $0) } }
        try finishPreparedChanges(of: stores, decidedIn: logs, entries: logged)
        for (log, entry) in logged.sorted(by: { $0.entry.number < $1.entry.number }) {
            for store in stores {
                guard let changes = entry.changes(forStore: store.identifier),
                    try !hasApplied(entry.number, storeWith: store.identifier, among: [store])
                else { continue }
                do {
                    try store.save(changes)
                } catch {
                    throw StoreError(
                        code: (error as? StoreError)?.code ?? .io,
                        message: "\(store.nameInMessages) could not complete save \(entry.number) across stores "
                            + "that the save log '\(log.url.path)' holds (\(Self.objectCount(of: changes)) objects): "
                            + "\(error) "
                            + "When the store can no longer take it (another writer changed the same objects), "
                            + "discardPendingSaves(ofStoreAt:type:) drops its part of the save.",
                        underlying: error)
                }
                rowCache.remove(changes.updated.map(\.objectID) + changes.deleted.map(\.objectID))
                probe(.completedFromLog)
                logger.notice(
                    "Completed a save across stores from the save log",
                    metadata: Self.logMetadata(of: store).merging(
                        ["log": "\(log.url.path)", "save": "\(entry.number)"]) { a, _ in a })
            }
        }
    }

    /// Whether the store with `identifier` among `stores` recorded save `number` (a store not
    /// among them has not). A store other processes write may have recorded it since it was
    /// opened: when the number it read then says no, its file (or server) is asked.
    func hasApplied(_ number: Int64, storeWith identifier: String, among stores: [any IncrementalStore]) throws
        -> Bool
    {
        guard let store = stores.first(where: { $0.identifier == identifier }) else { return false }
        if Self.recordedSave(of: store) >= number { return true }
        guard store.capabilities.contains(.multiProcessAccess) else { return false }
        if let store = store as? any PreparingStore {
            try store.reloadMetadata()
            return Self.recordedSave(of: store) >= number
        }
        guard let url = store.url, url.isFileURL, let metadata = try storeType(named: store.typeName).readMetadata(url)
        else { return false }
        return Self.recordedSave(in: metadata) >= number
    }

    /// Changes that stores among `stores` prepared for a save across stores and still keep,
    /// each with the folder of the added store beside whose log the save was decided, if added.
    private func preparedChanges(of stores: [any IncrementalStore]) throws
        -> [(store: any PreparingStore, name: String, number: Int64, anchorFolder: URL?)]
    {
        try stores.flatMap { store -> [(store: any PreparingStore, name: String, number: Int64, anchorFolder: URL?)] in
            guard let store = store as? any PreparingStore else { return [] }
            return try store.preparedChangeNames().compactMap { name in
                guard let (number, anchor) = PreparedChangesName.parse(name, store: store.identifier) else {
                    return nil
                }
                return (store, name, number, stores.first { $0.identifier == anchor }?.folder)
            }
        }
    }

    /// Commits the changes stores among `stores` prepared for a save `logged` holds (the save
    /// was decided) and rolls back those for a save the log of its anchor does not hold (the
    /// process stopped before deciding it); leaves those whose anchor's log is not in `logs`.
    private func finishPreparedChanges(
        of stores: [any IncrementalStore], decidedIn logs: [StripedSaveLog],
        entries logged: [(log: StripedSaveLog, entry: StripedSaveLog.Entry)]
    ) throws {
        for unfinished in try preparedChanges(of: stores) {
            guard let folder = unfinished.anchorFolder, let log = logs.first(where: { $0.serves(folder: folder) })
            else { continue }
            let decided = logged.contains {
                $0.log === log && $0.entry.number == unfinished.number
                    && $0.entry.changes(forStore: unfinished.store.identifier) != nil
            }
            try unfinished.store.finishPreparedChanges(named: unfinished.name, commit: decided)
            if decided {
                // The prepared transaction may hold the parts of stores sharing it.
                for case let store as any PreparingStore in stores
                where store.transactionDomain == unfinished.store.transactionDomain {
                    try store.reloadMetadata()
                }
                let parts = logged.filter { $0.entry.number == unfinished.number }.flatMap(\.entry.changes)
                rowCache.remove(
                    parts.flatMap { $0.changes.updated.map(\.objectID) + $0.changes.deleted.map(\.objectID) })
                announceWrite(to: unfinished.store)
                probe(.completedFromLog)
            }
            logger.notice(
                "\(decided ? "Committed" : "Rolled back") the changes a store prepared for a save across stores",
                metadata: Self.logMetadata(of: unfinished.store).merging(
                    [
                        "log": "\(log.url.path)", "save": "\(unfinished.number)", "prepared": "\(unfinished.name)",
                        "decided": "\(decided)",
                    ]
                ) { a, _ in a })
        }
    }

    /// Completes the saves across stores that the log beside the store `description` names
    /// holds for it, with `source`, the model version the store (and so the log's records of
    /// it) was written with, before automatic migration makes it a store of ``model``; then
    /// drops its applied parts from the log, whose records of it could no longer be read with
    /// the model of the migrated store.
    func completeStripedSaves(
        beforeMigrating description: PersistentStoreDescription, of type: StoreType, metadata: StoreMetadata,
        source: ManagedObjectModel
    ) throws {
        guard let url = description.url else { return }
        let folder = url.deletingLastPathComponent()
        guard StripedSaveLog.mayHoldEntries(folder: folder),
            try Self.logHoldsSaves(
                for: metadata.storeIdentifier, after: Self.recordedSave(in: metadata), inFolder: folder,
                schema: source.schema)
        else { return }
        let earlier = try PersistentStoreCoordinator(
            model: source, storeTypes: [type], valueTransformers: valueTransformers, logger: logger)
        let store = try earlier.addStore(
            type: type.name, configuration: description.configuration, at: url, options: description.storeOptions)
        let recorded = Self.recordedSave(of: store)
        try earlier.remove(store)
        let log = try StripedSaveLog.lock(folder: folder)
        let kept = try log.entries(schema: source.schema).compactMap { entry -> StripedSaveLog.Entry? in
            guard entry.changes(forStore: metadata.storeIdentifier) != nil, entry.number <= recorded else {
                return entry
            }
            var entry = entry
            entry.changes.removeAll { $0.storeIdentifier == metadata.storeIdentifier }
            return entry.changes.isEmpty ? nil : entry
        }
        try log.rewrite(kept)
        logger.notice(
            "Completed the saves across stores a store missed before migrating it",
            metadata: ["store.url": "\(url.path)", "log": "\(log.url.path)", "model": "\(source.versionIdentifiers)"])
    }

    /// Whether the log of `folder` holds a save for the store with `identifier` numbered after
    /// `recorded`, read with `schema`.
    private static func logHoldsSaves(
        for identifier: String, after recorded: Int64, inFolder folder: URL, schema: ModelSchema
    ) throws -> Bool {
        let log = try StripedSaveLog.lock(folder: folder)
        return try log.entries(schema: schema).contains {
            $0.changes(forStore: identifier) != nil && recorded < $0.number
        }
    }

    /// Drops the part of the store at `url` from every save across stores that the save log of
    /// its folder holds and the store has not applied: the way out when the store can no longer
    /// take a logged save (another writer changed the same objects since), which otherwise
    /// keeps it from being added. The other stores' parts stay in the log. Call it while the
    /// store is not added to any coordinator.
    ///
    /// - Returns: the numbers of the saves whose part was dropped.
    /// - Throws: ``StoreError/Code/unknownObject`` when there is no store of `type` at `url`;
    ///   what reading or writing the log throws.
    @discardableResult
    public func discardPendingSaves(ofStoreAt url: URL, type: String) throws -> [Int64] {
        guard let metadata = try metadataForStore(type: type, at: url) else {
            throw StoreError(code: .unknownObject, message: "There is no \(type) store at '\(url.path)'.")
        }
        let folder = url.deletingLastPathComponent()
        guard StripedSaveLog.mayHoldEntries(folder: folder) else { return [] }
        let log = try StripedSaveLog.lock(folder: folder)
        let recorded = Self.recordedSave(in: metadata)
        var discarded: [Int64] = []
        let kept = try log.entries(schema: schema).compactMap { entry -> StripedSaveLog.Entry? in
            guard entry.changes(forStore: metadata.storeIdentifier) != nil, recorded < entry.number else {
                return entry
            }
            discarded.append(entry.number)
            var entry = entry
            entry.changes.removeAll { $0.storeIdentifier == metadata.storeIdentifier }
            return entry.changes.isEmpty ? nil : entry
        }
        guard !discarded.isEmpty else { return [] }
        try log.rewrite(kept)
        logger.notice(
            "Discarded a store's part of saves across stores from the save log",
            metadata: ["store.url": "\(url.path)", "log": "\(log.url.path)", "saves": "\(discarded)"])
        return discarded
    }

    /// How many objects `changes` inserts, updates and deletes.
    private static func objectCount(of changes: StoreChangeSet) -> Int {
        changes.inserted.count + changes.updated.count + changes.deleted.count
    }
}
