import Foundation

extension PersistentStoreCoordinator {
    /// The model versions and mapping models that stores written with older versions of
    /// ``model`` are migrated by when they are added with `addStore(_:)`; `nil` (the
    /// default) for none, and then such a store fails to open with
    /// ``StoreError/Code/incompatibleModel``.
    ///
    /// When a description's ``PersistentStoreDescription/shouldMigrateStoreAutomatically`` is
    /// set (the default) and its store's metadata does not fit ``model``, the store is migrated
    /// in place by the plan's steps (``MigrationPlan/migrateStore(at:type:configuration:to:allowsInference:logger:progress:)``)
    /// before it is opened: a step without a mapping model infers one only when
    /// ``PersistentStoreDescription/shouldInferMappingModelAutomatically`` is set too. A store
    /// matching no version of the plan fails with ``MigrationError/Code/noMatchingVersion``,
    /// naming the store's and the plan's versions.
    ///
    /// ```swift
    /// coordinator.migrationPlan = MigrationPlan(models: [version1, version2])
    /// try coordinator.addStore(.sqlite(at: url))
    /// ```
    public var migrationPlan: MigrationPlan? {
        get { migrationPlanState.withLock { $0 } }
        set { migrationPlanState.withLock { $0 = newValue } }
    }

    /// Migrates the store `description` describes in place when its description allows it
    /// and its metadata does not fit the model.
    func migrateIfNeeded(_ description: PersistentStoreDescription, of type: StoreType) throws {
        guard description.shouldMigrateStoreAutomatically, let plan = migrationPlan, let url = description.url,
            store(at: url) == nil, let metadata = try type.readMetadata(url),
            !model.isConfiguration(description.configuration, compatibleWithStoreMetadata: metadata)
        else { return }
        if description.isReadOnly {
            let steps = try plan.steps(
                from: metadata, configuration: description.configuration, to: model,
                allowsInference: description.shouldInferMappingModelAutomatically)
            throw StoreError(
                code: .readOnly,
                message: "The \(type.name) store at '\(url.nameInMessages)' needs migrating from model version "
                    + "'\(steps.first?.source.name ?? "")' before it can be opened, and it is to be opened read-only.")
        }
        let steps = try plan.steps(
            from: metadata, configuration: description.configuration, to: model,
            allowsInference: description.shouldInferMappingModelAutomatically)
        if let source = steps.first?.source.model {
            try completeStripedSaves(beforeMigrating: description, of: type, metadata: metadata, source: source)
        }
        try observing(ObservedOperation(kind: .migration, entity: nil, storeTypes: type.name)) { _ in
            try plan.migrateStore(
                at: url, type: type, configuration: description.configuration, to: model,
                allowsInference: description.shouldInferMappingModelAutomatically, logger: logger)
        }
    }
}
