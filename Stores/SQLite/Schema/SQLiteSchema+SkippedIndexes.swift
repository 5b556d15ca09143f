import Strata

extension SQLiteSchema {
    /// The fetch indexes of `entityNames` the layout does not build, each with the reason:
    /// R-tree elements and partial-index predicates are not built yet.
    static func skippedFetchIndexes(in model: ModelSchema, entityNames: Set<String>) -> [String] {
        var skipped: [String] = []
        for name in entityNames.sorted() {
            guard let entity = model.entitiesByName[name]?.description else { continue }
            for index in entity.fetchIndexes {
                if index.elements.contains(where: { $0.kind != .binary }) {
                    skipped.append("'\(name).\(index.name)' has R-tree elements, which the SQLite store does not build")
                } else if index.partialIndexPredicate != nil {
                    skipped.append("'\(name).\(index.name)' is a partial index, which the SQLite store does not build")
                }
            }
        }
        return skipped
    }
}
