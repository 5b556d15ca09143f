import Strata

extension LMDBStore {
    /// Runs `update` in one write transaction: the matching records (found as a fetch finds
    /// them) rewritten with the new values, computed ones worked out from each record as it
    /// was, and their version raised by one, index entries replaced, and, for a store
    /// recording persistent history, the transaction. `nil` (the core's context does it) when
    /// a computed value does not fit its attribute (nothing is changed).
    public func executeBatchUpdate(_ update: StoreBatchUpdate) throws -> StoreBatchUpdateResult? {
        let history = options.tracksPersistentHistory ? update.history : nil
        guard !options.isReadOnly, history != nil || !options.tracksPersistentHistory else { return nil }
        let entity = try entitySchema(named: update.entityName)
        let matching = StoreFetchRequest(
            entityName: update.entityName, includesSubentities: update.includesSubentities,
            predicate: update.predicate, resultType: .snapshots)
        let computed = update.expressions.sorted { $0.key < $1.key }
        do {
            let ids = try recordedHistory.recording { note in
                try write("running a batch update of \(update.entityName)") { loader in
                    let evaluation = FetchEvaluation()
                    let ids = try matches(matching, loader).map { old in
                        var values = old.values
                        let record = LMDBRecordResolver(snapshot: old, loader: loader)
                        for (key, expression) in computed {
                            let value = try evaluation.value(of: expression, for: record)
                            guard let attribute = entity.attributesByName[key], let kept = attribute.type.coerce(value),
                                attribute.isOptional || !kept.isNull
                            else { throw UnfitValue() }
                            values[key] = kept
                        }
                        for (key, value) in update.values { values[key] = value }
                        let version = try StoredCounter.next(
                            after: old.version, "The version of \(old.objectID) in \(storeName)")
                        try put(
                            Snapshot(objectID: old.objectID, values: values, version: version), replacing: old, loader)
                        return old.objectID
                    }
                    if let history, let databases = databases.history, !ids.isEmpty {
                        let keys = Set(update.values.keys).union(update.expressions.keys)
                        let changes = ids.map {
                            StoreChangeSet.ObjectChange(
                                objectID: $0, values: [:], expectedVersion: 0, changedKeys: keys)
                        }
                        let number = try recordHistory(
                            of: StoreChangeSet(updated: changes, history: history), stored: [:], history: databases,
                            in: loader.transaction)
                        note(number)
                    }
                    return ids
                }
            }
            return update.listsObjectIDs
                ? StoreBatchUpdateResult(objectIDs: ids) : StoreBatchUpdateResult(count: ids.count)
        } catch is UnfitValue {
            return nil
        }
    }

    /// The stored snapshots `request` matches, read in `loader`'s transaction as a fetch reads
    /// them.
    func matches(_ request: StoreFetchRequest, _ loader: LMDBObjectLoader) throws -> [Snapshot] {
        let (kinds, root, database) = try scope(of: request)
        var objects = try candidates(request, kinds: kinds, root: root, database: database, loader).map {
            LMDBRecordResolver(snapshot: $0, loader: loader)
        }
        if let predicate = request.predicate { objects = try predicate.filter(objects) }
        return objects.map(\.snapshot)
    }
}

/// Stops a batch update whose computed value does not fit its attribute.
private struct UnfitValue: Error {}
