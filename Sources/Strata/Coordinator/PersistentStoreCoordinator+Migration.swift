import Foundation

extension PersistentStoreCoordinator {
    /// Copies the added store `store` into a new store of type `type` at `url`, and puts the new
    /// store in its place in ``stores``; Core Data's `migratePersistentStore`.
    ///
    /// Every object of every entity in the store's configuration is carried over with all its
    /// attribute values, to-one references and to-many members (in order for an ordered
    /// relationship). The new store keeps the source's ``PersistentStore/identifier``,
    /// configuration and every ``StoreMetadata/userInfo`` key, and its objects keep their IDs:
    /// an object ID or URI taken from the source names the same object in the new store, and
    /// references other stores keep to them stay valid. A destination that cannot keep their
    /// numbers — one handing out another kind of reference than the source's, or one numbering
    /// the whole store when the source numbers each entity hierarchy and two of its objects
    /// share a number (docs/CROSS-STORE-RELATIONSHIPS.md) — gives the objects new references
    /// from ``IncrementalStore/permanentIDs(forEntities:)``; then every object ID of the source store held in a value or a to-many relationship is
    /// rewritten to the copied object's new ID, and so are the references other added stores
    /// keep (docs/CROSS-STORE-RELATIONSHIPS.md). IDs of other stores are copied as they are. A
    /// reference to an object the source does not hold fails the migration rather than point at
    /// the wrong object.
    ///
    /// ```swift
    /// let cache = try coordinator.addStore(type: StoreType.inMemory.name)
    /// let saved = try coordinator.migratePersistentStore(cache, to: url, type: "JSON")
    /// ```
    ///
    /// The source store and its file are only read, never written. The objects are saved into
    /// the destination as inserts, in change sets of `migrationBatchSize` (10 000) objects (one change
    /// set for a whole-file store). While the copy runs, the source stays added and usable;
    /// changes saved to it meanwhile may or may not be carried over.
    ///
    /// - Parameters:
    ///   - store: A store added to this coordinator.
    ///   - url: The new store's file; `nil` for a store without one. There must be no store
    ///     there yet.
    ///   - type: A registered store type's name (``storeTypeNames``).
    ///   - options: How the new store is opened.
    ///   - progress: Called on the calling thread after each batch of an entity's objects is
    ///     read and renumbered (and saved, unless the destination is a whole-file store), and
    ///     once more, with ``MigrationProgress/completedObjects`` equal to
    ///     ``MigrationProgress/totalObjects``, after the new store is saved.
    /// - Returns: The new store, now added to the coordinator where `store` was.
    /// - Throws: ``StoreError`` with code
    ///   - ``StoreError/Code/unknownStore`` when `store` is not added to this coordinator;
    ///   - ``StoreError/Code/unknownStoreType`` when `type` is not registered;
    ///   - ``StoreError/Code/inUse`` when `url` is the source's own file, a file another added
    ///     store uses, or a file that already holds a store or objects (it is left as it is);
    ///   - ``StoreError/Code/migrationFailed`` when opening, filling or saving the new store
    ///     fails, with the first error as ``StoreError/underlying``. The partial new store is
    ///     destroyed with the type's destroyer, and `store` stays added and unchanged. A file at
    ///     `url` that cannot be read as a store of `type` fails the same way but is left as it is.
    /// - Complexity: O((*n* + *m*) log *n*) time beyond the stores' own work, where *n* is the
    ///   number of objects and *m* the number of to-many members: one ID fetch per entity, then
    ///   per batch of `migrationBatchSize` (10 000) objects one
    ///   ``StoreReading/snapshots(for:)`` call, one
    ///   ``StoreReading/relatedObjectIDs(ofEach:relationship:)`` call per to-many
    ///   relationship and one save. Memory beyond the stores' own is two references per object
    ///   and one batch of snapshots; an object whose to-many members come in later batches waits
    ///   for them (its save needs them stored). A whole-file destination is saved once, with
    ///   every object, at the end.
    @discardableResult
    public func migratePersistentStore(
        _ store: any IncrementalStore, to url: URL?, type: String, options: StoreOptions = StoreOptions(),
        progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) throws -> any IncrementalStore {
        try observingMigration(of: store, to: type) {
            try migrate(store, to: url, storeType: try storeType(named: type), options: options, progress: progress)
        }
    }

    /// Copies `store` into a new store that `description` describes and puts the copy in its
    /// place: the typed form of ``migratePersistentStore(_:to:type:options:progress:)``, which
    /// it is in every other way. The copy holds `store`'s configuration, whatever the
    /// description's; a store type without typed options is registered when no type of its
    /// name is, as `addStore(_:)` does.
    ///
    /// ```swift
    /// try coordinator.migratePersistentStore(store, to: .binary(at: folder.appendingPathComponent("Catalog.binary")))
    /// ```
    @discardableResult
    public func migratePersistentStore(
        _ store: any IncrementalStore, to description: PersistentStoreDescription,
        progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) throws -> any IncrementalStore {
        try observingMigration(of: store, to: description.type) {
            try migrate(
                store, to: description.url, storeType: try resolvedType(of: description),
                options: description.storeOptions, progress: progress)
        }
    }

    /// Runs `body`, the migration of `store` into a store of `type`, under the observer.
    private func observingMigration(
        of store: any IncrementalStore, to type: String, _ body: () throws -> any IncrementalStore
    ) throws -> any IncrementalStore {
        try observing(
            ObservedOperation(
                kind: .migration, entity: nil, storeTypes: ObservedOperation.storeTypes([store.typeName, type]))
        ) { _ in try body() }
    }

    private func migrate(
        _ store: any IncrementalStore, to url: URL?, storeType: StoreType, options: StoreOptions,
        progress: (@Sendable (MigrationProgress) -> Void)?
    ) throws -> any IncrementalStore {
        guard stores.contains(where: { $0 === store }) else {
            throw StoreError(
                code: .unknownStore,
                message: "Cannot migrate \(Self.name(of: store)): it is not added to the coordinator.")
        }
        let type = storeType.name
        let target = url.map { "a \(type) store at '\($0.nameInMessages)'" } ?? "a new \(type) store"
        if let url { try checkDestination(url, of: storeType, for: store) }

        let destination: any IncrementalStore
        do {
            destination = try storeType.open(
                StoreOpenRequest(
                    model: model, configurationName: store.configurationName, url: url, options: options,
                    identifierForNewStore: store.identifier, userInfoForNewStore: store.metadata.userInfo,
                    logger: logger, observer: observer))
        } catch {
            throw Self.abandon(storeType, at: url, migrating: store, to: target, after: error)
        }
        let entityNames = model.entityNames(inConfiguration: store.configurationName)
        let isEmpty: Bool
        do {
            isEmpty = try Self.countObjects(in: destination, entityNames: entityNames) == 0
        } catch {
            throw Self.abandon(storeType, at: url, migrating: store, to: target, after: error)
        }
        guard isEmpty else {
            throw StoreError(
                code: .inUse,
                message: "Cannot migrate \(Self.name(of: store)) to \(target): the destination already holds objects. "
                    + "Choose another URL, or destroy that store first.")
        }
        var metadata = Self.logMetadata(of: store)
        metadata["migration.to"] = "\(target)"
        logger.info("Migrating store", metadata: metadata)
        let started = ContinuousClock.now
        let associations: MigrationAssociations
        do {
            associations = try copyObjects(of: store, entityNames: entityNames, into: destination, progress: progress)
            try replace(store, with: destination)
        } catch {
            let failure = Self.abandon(storeType, at: url, migrating: store, to: target, after: error)
            metadata["error"] = "\(failure.message)"
            logger.error("Migration failed", metadata: metadata)
            throw failure
        }
        try renumberReferences(to: destination, as: associations)
        metadata["migration.duration"] = "\(ContinuousClock.now - started)"
        logger.info("Store migrated", metadata: metadata)
        return destination
    }

    /// Throws ``StoreError/Code/inUse`` unless `url` is free for a new store of `storeType`:
    /// not the file of `source` or of another added store, and holding no store yet.
    private func checkDestination(_ url: URL, of storeType: StoreType, for source: any IncrementalStore) throws {
        let target = "'\(url.nameInMessages)'"
        if let existing = store(at: url) {
            let whose =
                existing === source ? "the source's own file" : "the file of an added \(existing.typeName) store"
            throw StoreError(
                code: .inUse,
                message: "Cannot migrate \(Self.name(of: source)) to \(target): it is \(whose). Choose another URL.")
        }
        let metadata: StoreMetadata?
        do {
            metadata = try storeType.readMetadata(url)
        } catch {
            throw StoreError(
                code: .migrationFailed,
                message: "Cannot migrate \(Self.name(of: source)) to \(target): the file there could not be read as a "
                    + "\(storeType.name) store, so it was left as it is. Choose another URL.",
                underlying: error)
        }
        if let metadata {
            throw StoreError(
                code: .inUse,
                message: "Cannot migrate \(Self.name(of: source)) to \(target): a \(storeType.name) store "
                    + "\(metadata.storeIdentifier) is already there. Choose another URL, or destroy that store first.")
        }
    }

    /// How many objects a migration reads, renumbers and saves at a time.
    static let migrationBatchSize = 10_000

    /// Copies every object of `entityNames` from `source` into `destination` with a mapping
    /// that copies every entity as it is (``MigrationEngine``), `migrationBatchSize` (10 000)
    /// objects at a time.
    private func copyObjects(
        of source: any IncrementalStore, entityNames: [String], into destination: any IncrementalStore,
        progress: (@Sendable (MigrationProgress) -> Void)?
    ) throws -> MigrationAssociations {
        for name in entityNames where schema.entitiesByName[name] == nil {
            throw StoreError(
                code: .unknownEntity,
                message: "Configuration '\(source.configurationName ?? "")' lists entity '\(name)', "
                    + "which the model does not have.")
        }
        let held = Set(entityNames)
        let engine = MigrationEngine(
            mapping: MappingModel.identity(of: schema), source: source, sourceSchema: schema,
            sourceEntityNames: held, destination: destination, destinationSchema: schema, destinationEntityNames: held,
            sourceName: Self.name(of: source), batchSize: Self.migrationBatchSize, progress: progress)
        return try engine.run()
    }

    /// The number of objects of `entityNames` (not counting sub-entities) in `store`.
    private static func countObjects(in store: any IncrementalStore, entityNames: [String]) throws -> Int {
        var total = 0
        for entityName in entityNames {
            let request = StoreFetchRequest(entityName: entityName, includesSubentities: false, resultType: .count)
            guard case .count(let count) = try store.execute(request) else {
                throw StoreError(
                    code: .corrupt,
                    message: "\(name(of: store)) answered a count of '\(entityName)' with another result type.")
            }
            total += count
        }
        return total
    }

    /// Destroys the partial destination at `url` (when there is one) and returns the
    /// ``StoreError/Code/migrationFailed`` error for `error`.
    private static func abandon(
        _ storeType: StoreType, at url: URL?, migrating source: any IncrementalStore, to target: String,
        after error: any Error
    ) -> StoreError {
        var reason = "\(error)"
        if !reason.hasSuffix(".") { reason += "." }
        var cleanup = "the partial destination was removed"
        if let url {
            do {
                try storeType.destroy(url)
            } catch {
                cleanup =
                    "removing the partial destination failed too (\(error)); remove '\(url.nameInMessages)' by hand"
            }
        }
        return StoreError(
            code: .migrationFailed,
            message: "Could not migrate \(name(of: source)) to \(target): \(reason) "
                + "The source is unchanged and \(cleanup).",
            underlying: error)
    }

    /// How messages name `store`: by its file when it has one, else by type and identifier.
    static func name(of store: any IncrementalStore) -> String {
        store.url.map { "the \(store.typeName) store at '\($0.nameInMessages)'" }
            ?? "the \(store.typeName) store \(store.identifier)"
    }
}
