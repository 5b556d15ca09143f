import Strata

extension LMDBStore {
    public func snapshot(for objectID: ObjectID) throws -> Snapshot? {
        try snapshot(for: objectID, in: nil)
    }

    /// The state of `objectID`, latest or in `generation`'s read transaction.
    func snapshot(for objectID: ObjectID, in generation: LMDBGeneration?) throws -> Snapshot? {
        _ = try entitySchema(named: objectID.entityName)
        return try read("loading \(objectID)", in: generation) { try $0.snapshot(of: objectID) }
    }

    /// Loads every snapshot in one read transaction.
    public func snapshots(for objectIDs: [ObjectID]) throws -> [Snapshot] {
        try snapshots(for: objectIDs, in: nil)
    }

    /// Loads every snapshot in one read transaction, latest or `generation`'s.
    func snapshots(for objectIDs: [ObjectID], in generation: LMDBGeneration?) throws -> [Snapshot] {
        for objectID in objectIDs { _ = try entitySchema(named: objectID.entityName) }
        return try read("loading \(objectIDs.count) objects", in: generation) { loader in
            try objectIDs.compactMap { try loader.snapshot(of: $0) }
        }
    }

    public func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        try relatedObjectIDs(ofEach: [objectID], relationship: relationship)[objectID] ?? []
    }

    /// Loads the members of every object in one read transaction.
    public func relatedObjectIDs(ofEach objectIDs: [ObjectID], relationship: String) throws -> [ObjectID: [ObjectID]] {
        try relatedObjectIDs(ofEach: objectIDs, relationship: relationship, in: nil)
    }

    /// Loads the members of every object in one read transaction, latest or `generation`'s.
    func relatedObjectIDs(
        ofEach objectIDs: [ObjectID], relationship: String, in generation: LMDBGeneration?
    ) throws -> [ObjectID: [ObjectID]] {
        for objectID in objectIDs {
            _ = try entitySchema(named: objectID.entityName).toManyRelationship(
                named: relationship, storeName: storeName)
        }
        return try read("loading '\(relationship)'", in: generation) { loader in
            var members: [ObjectID: [ObjectID]] = [:]
            for objectID in objectIDs {
                guard try loader.holds(objectID) else {
                    throw StoreError(code: .unknownObject, message: "\(storeName) has no object \(objectID).")
                }
                members[objectID] = try loader.members(of: objectID, relationship: relationship)
            }
            return members
        }
    }

    /// Hands out keys reserved earlier when enough are left; otherwise moves each root
    /// entity's counter in the counters database past a block (``KeyReservations``) in one
    /// write transaction and hands out the block's first keys.
    public func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID] {
        let roots = try entityNames.map { try entitySchema(named: $0).rootEntityName }
        return try reservedKeys.handOut(
            ObjectID.Namespace.namespaces(storeIdentifier: identifier, entityNames: entityNames), roots: roots,
            reserving: moveCounters)
    }

    /// Moves the counter of each root entity of `blocks` past its block, in one write
    /// transaction; past only the count `minimums` gives when the block would pass `Int64.max`.
    /// Returns each root's first reserved number and how many it reserved.
    private func moveCounters(
        by blocks: [String: Int64], atLeast minimums: [String: Int64]
    ) throws -> [String: (first: Int64, block: Int64)] {
        try write("handing out IDs") { loader in
            var raised: [String: (first: Int64, block: Int64)] = [:]
            for (root, block) in blocks {
                let stored = try loader.transaction.get(databases.counters, Array(root.utf8)).map(LMDBLayout.primaryKey)
                let first = max(stored ?? 1, 1)
                let reserved = KeyReservations.reservable(block, orAtLeast: minimums[root] ?? block, past: first)
                let next = try StoredCounter.adding(
                    reserved, to: first, "The object counter of '\(root)' in \(storeName)")
                try loader.transaction.put(databases.counters, Array(root.utf8), LMDBLayout.key(next))
                raised[root] = (first, reserved)
            }
            return raised
        }
    }

    /// Moves each root entity's counter past the keys `inserted` gives its objects, so that a
    /// key this store did not hand out (a save completed from a save log, a migration keeping
    /// its source's numbers) is never handed out afterwards.
    func moveCounters(past inserted: [ObjectID], _ loader: LMDBObjectLoader) throws {
        var largest: [String: Int64] = [:]
        for objectID in inserted {
            guard case .integer(let number) = objectID.reference else { continue }
            let root = try entitySchema(named: objectID.entityName).rootEntityName
            largest[root] = max(largest[root] ?? number, number)
        }
        for (root, number) in largest {
            let stored = try loader.transaction.get(databases.counters, Array(root.utf8)).map(LMDBLayout.primaryKey)
            guard number >= stored ?? 1 else { continue }
            let next = try StoredCounter.next(after: number, "The object number \(number) of '\(root)' in \(storeName)")
            try loader.transaction.put(databases.counters, Array(root.utf8), LMDBLayout.key(next))
        }
        reservedKeys.withLock { reserved in
            for (root, number) in largest { reserved.skip(past: number, of: root) }
        }
    }
}
