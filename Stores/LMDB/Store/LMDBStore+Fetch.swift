import CStrataLMDB
import Strata

extension LMDBStore {
    /// Runs a fetch in one read transaction: candidates from an index when the predicate has
    /// an index plan (``LMDBIndexPlan``), every record of the entity's root otherwise; then the
    /// core's evaluator on the decoded candidates, sorting, offset and limit. A count without
    /// a predicate reads no record: the root's entry count, or each record's entity number;
    /// nor does a count whose index plan is exact (``LMDBIndexPlan/isExact``).
    public func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
        try execute(request, in: nil)
    }

    /// Runs `request` on the latest committed state, or in `generation`'s read transaction.
    func execute(_ request: StoreFetchRequest, in generation: LMDBGeneration?) throws -> StoreFetchResult {
        let (kinds, root, database) = try scope(of: request)
        return try read("fetching \(request.entityName)", in: generation) { loader in
            if request.resultType == .count, request.predicate == nil {
                statistics.recordFetch(indexed: false)
                let total = try count(kinds, root: root, database: database, loader.transaction)
                return .count(request.pageCount(ofTotal: total))
            }
            if request.resultType == .count, let predicate = request.predicate,
                let plan = LMDBIndexPlan(predicate, entities: kinds, indexes: indexes), plan.isExact
            {
                let found = try plan.candidates(in: loader.transaction, index: databases.index, entities: kinds)
                if !found.includesOtherKinds {
                    statistics.recordFetch(indexed: true)
                    return .count(request.pageCount(ofTotal: found.keys.count))
                }
            }
            let candidates = try self.candidates(request, kinds: kinds, root: root, database: database, loader)
            return try request.result(
                of: candidates.map { LMDBRecordResolver(snapshot: $0, loader: loader) }, matching: request.predicate,
                snapshot: \.snapshot)
        }
    }

    /// The entities `request` reads, their root and the root's records database.
    func scope(of request: StoreFetchRequest) throws -> (kinds: [String], root: String, database: MDB_dbi) {
        let entity = try entitySchema(named: request.entityName)
        let kinds = entity.names(includingSubentities: request.includesSubentities)
            .filter(entityNames.contains)
        let root = entity.rootEntityName
        guard let database = databases.records[root] else {
            throw StoreError(code: .corrupt, message: "\(storeName) has no records database for '\(root)'.")
        }
        return (kinds, root, database)
    }

    /// The decoded records that may match `request`, in primary-key order.
    func candidates(
        _ request: StoreFetchRequest, kinds: [String], root: String, database: MDB_dbi, _ loader: LMDBObjectLoader
    ) throws -> [Snapshot] {
        let wanted = Set(kinds)
        if let predicate = request.predicate, let plan = LMDBIndexPlan(predicate, entities: kinds, indexes: indexes) {
            statistics.recordFetch(indexed: true)
            var snapshots: [Snapshot] = []
            for key in try plan.candidates(in: loader.transaction, index: databases.index, entities: kinds).keys {
                guard let bytes = try loader.transaction.get(database, LMDBLayout.key(key)) else { continue }
                let snapshot = try loader.decode(bytes, primaryKey: key, root: root)
                if wanted.contains(snapshot.objectID.entityName) { snapshots.append(snapshot) }
            }
            return snapshots
        }
        statistics.recordFetch(indexed: false)
        var records: [(key: Int64, bytes: [UInt8])] = []
        try loader.transaction.scan(database, from: []) { key, value in
            let primaryKey = LMDBLayout.primaryKey(key)
            if wanted.contains(try layout.entityName(ofRecord: value, primaryKey: primaryKey)) {
                records.append((primaryKey, Array(value)))
            }
            return true
        }
        return try records.map { try loader.decode($0.bytes, primaryKey: $0.key, root: root) }
    }

    /// How many objects of `kinds` the root's records database holds.
    private func count(_ kinds: [String], root: String, database: MDB_dbi, _ transaction: LMDBTransaction) throws
        -> Int
    {
        let family = Set(([root] + (model.entitiesByName[root]?.descendantNames ?? [])).filter(entityNames.contains))
        let wanted = Set(kinds)
        if wanted == family { return try transaction.count(database) }
        var total = 0
        try transaction.scan(database, from: []) { key, value in
            if wanted.contains(try layout.entityName(ofRecord: value, primaryKey: LMDBLayout.primaryKey(key))) {
                total += 1
            }
            return true
        }
        return total
    }
}
