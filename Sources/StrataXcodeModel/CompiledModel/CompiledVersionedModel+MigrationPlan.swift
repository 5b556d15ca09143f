import Strata

extension CompiledVersionedModel {
    /// A plan that migrates stores written with any version of this model, in
    /// ``versionNames`` order, each named by its version's name, with `mappingModels` for the
    /// steps that need more than an inferred mapping and the `policies` they name.
    ///
    /// ```swift
    /// let bundle = try CompiledVersionedModel(contentsOf: modelURL)
    /// try bundle.migrationPlan().migrateStore(at: storeURL, type: .sqlite, to: bundle.currentModel())
    /// ```
    ///
    /// - Throws: `ModelError` when a version cannot be read.
    public func migrationPlan(
        mappingModels: [MappingModel] = [], policies: [String: any MigrationPolicy] = [:]
    ) throws(ModelError) -> MigrationPlan {
        try plan(mappingModels: mappingModels, policies: policies)
    }
}
