extension ManagedObjectModel {
    /// Creates one model holding the entities, configurations and templates of several.
    ///
    /// Configurations with the same name merge into one holding the entities of each;
    /// version identifiers are united in order. The result is not frozen.
    ///
    /// - Throws: ``ModelError`` with code ``ModelError/Code/incompatibleModels`` when two
    ///   models declare an entity or a fetch request template with the same name.
    public convenience init(merging models: [ManagedObjectModel]) throws(ModelError) {
        var entities: [EntityDescription] = []
        var entityNames: Set<String> = []
        var configurations: [String: [String]] = [:]
        var templates: [FetchRequestTemplate] = []
        var templateNames: Set<String> = []
        var versionIdentifiers: [String] = []
        for (position, model) in models.enumerated() {
            for entity in model.entities {
                guard entityNames.insert(entity.name).inserted else {
                    throw ModelError(
                        code: .incompatibleModels,
                        message:
                            "Cannot merge models: entity '\(entity.name)' is declared again in model \(position + 1).")
                }
                entities.append(entity)
            }
            for (name, members) in model.configurations {
                let known = configurations[name] ?? []
                configurations[name] = known + members.filter { !known.contains($0) }
            }
            for template in model.fetchRequestTemplates {
                guard templateNames.insert(template.name).inserted else {
                    throw ModelError(
                        code: .incompatibleModels,
                        message:
                            "Cannot merge models: fetch request template '\(template.name)' is declared again in model \(position + 1)."
                    )
                }
                templates.append(template)
            }
            versionIdentifiers += model.versionIdentifiers.filter { !versionIdentifiers.contains($0) }
        }
        self.init(
            entities: entities, configurations: configurations, fetchRequestTemplates: templates,
            versionIdentifiers: versionIdentifiers)
    }
}
