import Strata

/// Finds the saved objects holding a uniqueness constraint's values, inside a save's write
/// transaction: through an index when the first key has one (``LMDBIndexPlan``), else from one
/// scan of the constraint's records per save, kept for the save's other lookups.
struct LMDBConstraintLookup {
    let store: LMDBStore
    let loader: LMDBObjectLoader
    private var scan: UniqueValuesScan

    init(store: LMDBStore, loader: LMDBObjectLoader) {
        self.store = store
        self.loader = loader
        scan = UniqueValuesScan { keys in
            let kinds = keys.entityNames.filter(store.entityNames.contains)
            return try Self.candidates(of: keys, kinds: kinds, predicate: nil, store: store, loader: loader)
        }
    }

    /// The saved objects of `constraint`'s entities whose keys hold `values`.
    mutating func matches(_ constraint: UniqueKeys, _ values: [AttributeValue]) throws -> [ObjectID] {
        let kinds = constraint.entityNames.filter(store.entityNames.contains)
        guard !kinds.isEmpty else { return [] }
        let predicate = constraint.predicate(matching: values)
        if LMDBIndexPlan(predicate, entities: kinds, indexes: store.indexes) != nil {
            let candidates = try Self.candidates(
                of: constraint, kinds: kinds, predicate: predicate, store: store, loader: loader)
            let objects = try predicate.filter(candidates.map { LMDBRecordResolver(snapshot: $0, loader: loader) })
            return objects.map(\.snapshot.objectID)
        }
        return try scan.matches(constraint, values)
    }

    private static func candidates(
        of constraint: UniqueKeys, kinds: [String], predicate: FetchPredicate?, store: LMDBStore,
        loader: LMDBObjectLoader
    ) throws -> [Snapshot] {
        let root = store.model.entitiesByName[constraint.entityName]?.rootEntityName ?? constraint.entityName
        guard let database = store.databases.records[root] else {
            throw StoreError(code: .corrupt, message: "\(store.storeName) has no records database for '\(root)'.")
        }
        let request = StoreFetchRequest(entityName: constraint.entityName, predicate: predicate)
        return try store.candidates(request, kinds: kinds, root: root, database: database, loader)
    }
}
