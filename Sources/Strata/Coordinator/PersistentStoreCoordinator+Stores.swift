import Foundation

extension PersistentStoreCoordinator {
    /// Opens a store of the registered type `type` and adds it.
    ///
    /// - Parameters:
    ///   - type: A registered store type's name (``storeTypeNames``).
    ///   - configuration: The model configuration the store holds; `nil` for every entity.
    ///   - url: The store's file; `nil` for a store without one.
    ///   - options: How the store is opened (read-only, store-specific settings).
    /// - Returns: The added store.
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unknownStoreType``,
    ///   ``StoreError/Code/unknownConfiguration``, ``StoreError/Code/inUse`` (a store at that URL
    ///   or with that identifier is already added), ``StoreError/Code/missingValueTransformer``
    ///   (a transformable attribute of the configuration names a transformer that
    ///   ``valueTransformers`` lacks), or whatever opening the store throws.
    @discardableResult
    public func addStore(
        type: String, configuration: String? = nil, at url: URL? = nil, options: StoreOptions = StoreOptions()
    ) throws -> any IncrementalStore {
        try addStore(of: try storeType(named: type), configuration: configuration, at: url, options: options)
    }

    /// Opens the store `description` describes and adds it: the typed way to add a store.
    ///
    /// ```swift
    /// try coordinator.addStore(.sqlite(at: url, options: SQLiteStoreOptions(poolSize: 4)))
    /// try coordinator.addStore(.inMemory(configuration: "Cache"))
    /// ```
    ///
    /// A description made with a store type (``PersistentStoreDescription/storeType``) opens
    /// with that type and its options; a type without typed options is also registered when no
    /// type of its name is, so that its metadata, migration and destruction work by name
    /// afterwards. One made by name uses the registered type of that name.
    ///
    /// A store written with an older model version is migrated first, in place, as the
    /// description's ``PersistentStoreDescription/shouldMigrateStoreAutomatically`` and
    /// ``PersistentStoreDescription/shouldInferMappingModelAutomatically`` allow; see
    /// ``migrationPlan``.
    ///
    /// - Throws: As `addStore(type:configuration:at:options:)`, and ``MigrationError`` when the
    ///   store needs migrating and cannot be (the store is then left as it was).
    @discardableResult
    public func addStore(_ description: PersistentStoreDescription) throws -> any IncrementalStore {
        let type = try resolvedType(of: description)
        func add() throws -> any IncrementalStore {
            try addStore(
                of: type, configuration: description.configuration, at: description.url,
                options: description.storeOptions)
        }
        guard description.shouldMigrateStoreAutomatically, migrationPlan != nil, description.url != nil else {
            return try add()
        }
        // One migrating addition at a time, so that no other one opens a file a migration is replacing.
        return try migrationGate.withLock { _ in
            try migrateIfNeeded(description, of: type)
            return try add()
        }
    }

    /// Opens the store `description` describes and adds it, off the caller's thread: the same
    /// as `addStore(_:)`, for callers that must not block while a large file is opened.
    @discardableResult
    public func addStore(_ description: PersistentStoreDescription) async throws -> any IncrementalStore {
        try await Task.detached { [self] in try addStore(description) }.value
    }

    /// The type `description` opens with: the one it was made with, else the registered type
    /// of its name. A type made without a variant (no typed options) is registered when no
    /// type of its name is; a variant is not, so that it never stands for its type by name.
    func resolvedType(of description: PersistentStoreDescription) throws -> StoreType {
        guard let given = description.storeType, given.name == description.type else {
            return try storeType(named: description.type)
        }
        if given.variant == nil {
            state.withLock { state in
                if state.types[given.name] == nil { state.types[given.name] = given }
            }
        }
        return given
    }

    private func addStore(
        of storeType: StoreType, configuration: String?, at url: URL?, options: StoreOptions
    ) throws -> any IncrementalStore {
        try checkConfiguration(configuration)
        try checkValueTransformers(configuration: configuration, url: url)
        if let url, let existing = store(at: url) {
            throw StoreError(
                code: .inUse,
                message: "A \(existing.typeName) store at '\(url.nameInMessages)' is already added to the coordinator.")
        }
        let store = try storeType.open(
            StoreOpenRequest(
                model: model, configurationName: configuration, url: url, options: options, logger: logger,
                observer: observer))
        try add(store)
        logger.info("Store opened", metadata: Self.logMetadata(of: store))
        if store.capabilities.contains(.relaxedDurability) {
            logger.warning(
                "Store opened with relaxed durability: a crash of the system may lose its last saves",
                metadata: Self.logMetadata(of: store))
        }
        return store
    }

    /// Opens a store of the registered type `type` and adds it, off the caller's thread.
    ///
    /// The same as `addStore(type:configuration:at:options:)`, for callers that must not
    /// block while a large file is opened.
    @discardableResult
    public func addStore(
        type: String, configuration: String? = nil, at url: URL? = nil, options: StoreOptions = StoreOptions()
    ) async throws -> any IncrementalStore {
        try await Task.detached { [self] in
            try addStore(type: type, configuration: configuration, at: url, options: options)
        }.value
    }

    /// Adds a store that is already open, such as one a third-party author built by hand.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unknownConfiguration`` when the
    ///   store's configuration is not in the model, ``StoreError/Code/missingValueTransformer``
    ///   when one of its transformable attributes has no registered transformer,
    ///   ``StoreError/Code/inUse`` when a store
    ///   with the same identifier or URL is already added, or ``StoreError/Code/unsupported``
    ///   when it was opened with ``StoreOptions/tracksPersistentHistory`` but keeps no history,
    ///   or with ``StoreOptions/postsRemoteChangeNotifications`` but without
    ///   ``StoreOptions/tracksPersistentHistory``.
    public func add(_ store: any IncrementalStore) throws {
        try checkConfiguration(store.configurationName)
        try checkValueTransformers(configuration: store.configurationName, url: store.url)
        if store.options.tracksPersistentHistory, !store.capabilities.contains(.persistentHistory) {
            throw StoreError(
                code: .unsupported,
                message: "\(store.nameInMessages) keeps no persistent history; open it without "
                    + "tracksPersistentHistory, or use a store type that declares persistentHistory.")
        }
        if store.options.postsRemoteChangeNotifications, !store.options.tracksPersistentHistory {
            throw StoreError(
                code: .unsupported,
                message: "\(store.nameInMessages) was opened with postsRemoteChangeNotifications but without "
                    + "tracksPersistentHistory: remote changes are found in the store's history, so turn both on.")
        }
        let entityNames = Set(model.entityNames(inConfiguration: store.configurationName))
        try state.withLock { try Self.checkNoClash(with: store, among: $0.stores) }
        // The store is called without the lock held, so that it may take its time or call back.
        try store.willAttach()
        do {
            try completeStripedSaves(of: store)
            try state.withLock { state in
                try Self.checkNoClash(with: store, among: state.stores)
                state.stores.append(AddedStore(store: store, entityNames: entityNames))
            }
        } catch {
            store.close()
            throw error
        }
        guard store.options.postsRemoteChangeNotifications else { return }
        do {
            try startWatching(store)
        } catch {
            try? remove(store)
            throw error
        }
    }

    /// Puts `replacement` in the place of the added store `store`, keeping the order of the
    /// stores; migration uses it to swap a store for its copy in one step.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unknownStore`` when `store` is no
    ///   longer added, or ``StoreError/Code/inUse`` when another added store has the same
    ///   identifier or URL as `replacement`.
    func replace(_ store: any IncrementalStore, with replacement: any IncrementalStore) throws {
        let entityNames = Set(model.entityNames(inConfiguration: replacement.configurationName))
        try replacement.willAttach()
        do {
            try state.withLock { state in
                guard let index = state.stores.firstIndex(where: { $0.store === store }) else {
                    throw StoreError(
                        code: .unknownStore,
                        message:
                            "The \(store.typeName) store \(store.identifier) is no longer added to the coordinator.")
                }
                var others = state.stores
                others.remove(at: index)
                try Self.checkNoClash(with: replacement, among: others)
                state.stores[index] = AddedStore(store: replacement, entityNames: entityNames)
            }
        } catch {
            replacement.close()
            throw error
        }
        rowCache.removeSnapshots(ofStore: store.identifier)
        close(store)
    }

    /// Removes `store` and closes it (``PersistentStore/close()``); contexts can no longer
    /// fetch from or save to it.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unknownStore`` when it is not added.
    public func remove(_ store: any IncrementalStore) throws {
        try state.withLock { state in
            guard let index = state.stores.firstIndex(where: { $0.store === store }) else {
                throw StoreError(
                    code: .unknownStore,
                    message: "The \(store.typeName) store \(store.identifier) is not added to the coordinator.")
            }
            state.stores.remove(at: index)
        }
        rowCache.removeSnapshots(ofStore: store.identifier)
        close(store)
    }

    /// The added stores, in the order they were added.
    public var stores: [any IncrementalStore] {
        state.withLock { $0.stores.map(\.store) }
    }

    /// The added store whose file is `url`, if any.
    public func store(at url: URL) -> (any IncrementalStore)? {
        let target = url.standardizedFileURL
        return stores.first { $0.url?.standardizedFileURL == target }
    }

    /// The added store with the identifier `identifier`, if any.
    public func store(withIdentifier identifier: String) -> (any IncrementalStore)? {
        state.withLock { $0.stores.first { $0.store.identifier == identifier }?.store }
    }

    /// Throws ``StoreError/Code/inUse`` when one of `stores` has the identifier or the file of `store`.
    private static func checkNoClash(with store: any IncrementalStore, among stores: [AddedStore]) throws {
        let url = store.url?.standardizedFileURL
        guard
            let clash = stores.first(where: {
                $0.store.identifier == store.identifier || (url != nil && $0.store.url?.standardizedFileURL == url)
            })
        else { return }
        let place = clash.store.url.map { " at '\($0.nameInMessages)'" } ?? ""
        throw StoreError(
            code: .inUse,
            message: "A \(clash.store.typeName) store\(place) with identifier \(clash.store.identifier) "
                + "is already added to the coordinator.")
    }

    private func checkConfiguration(_ name: String?) throws {
        guard let name, model.configurations[name] == nil else { return }
        let known = model.configurations.keys.sorted()
        throw StoreError(
            code: .unknownConfiguration,
            message: "The model has no configuration '\(name)'; its configurations are: "
                + (known.isEmpty ? "none" : known.joined(separator: ", ")) + ".")
    }

    /// Throws ``StoreError/Code/missingValueTransformer`` naming every transformable attribute of
    /// `configuration` whose transformer is not in ``valueTransformers``.
    private func checkValueTransformers(configuration: String?, url: URL?) throws {
        let missing = valueTransformers.unregisteredAttributes(in: model, configuration: configuration)
        guard !missing.isEmpty else { return }
        let attributes = missing.map { entity, attribute in
            "'\(entity).\(attribute.name)' (transformer '\(attribute.valueTransformerName ?? "")')"
        }
        let place = url.map { " at '\($0.nameInMessages)'" } ?? ""
        throw StoreError(
            code: .missingValueTransformer,
            message: "Cannot add the store\(place): no value transformer is registered for "
                + attributes.joined(separator: ", ") + "; register one under that name in the "
                + "ValueTransformerRegistry given to the coordinator.")
    }
}
