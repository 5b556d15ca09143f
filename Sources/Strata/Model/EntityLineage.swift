/// Entities by name, for walking inheritance before a model is resolved.
struct EntityLineage {
    let entitiesByName: [String: EntityDescription]

    /// Indexes `entities` by name; the first of two entities with one name wins.
    init(_ entities: [EntityDescription]) {
        entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Uses `entitiesByName` as it is.
    init(entitiesByName: [String: EntityDescription]) {
        self.entitiesByName = entitiesByName
    }

    /// `entity` followed by its ancestors, nearest first; stops at a cycle or an unknown name.
    func lineage(of entity: EntityDescription) -> [EntityDescription] {
        var result: [EntityDescription] = []
        var seen: Set<String> = []
        var current: EntityDescription? = entity
        while let candidate = current, seen.insert(candidate.name).inserted {
            result.append(candidate)
            current = candidate.superentityName.flatMap { entitiesByName[$0] }
        }
        return result
    }
}
