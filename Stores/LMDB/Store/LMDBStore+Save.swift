import Strata

extension LMDBStore {
    /// Applies `changes` in one write transaction: reads the stored version of every changed
    /// object, refuses the save listing every stale one, then writes records, index entries,
    /// to-many members and metadata, calls `decision`, and commits (or aborts when it throws).
    public func save(_ changes: StoreChangeSet, committingAfter decision: () throws -> Void) throws {
        guard !options.isReadOnly else {
            throw StoreError(code: .readOnly, message: "\(storeName) was opened read-only.")
        }
        var decided = false
        let saved = try recordedHistory.recording { note in
            try write("saving") { loader in
                let objectIDs =
                    changes.inserted.map(\.objectID) + changes.updated.map(\.objectID)
                    + changes.deleted.map(\.objectID)
                var stored: [ObjectID: Snapshot] = [:]
                for objectID in objectIDs { stored[objectID] = try loader.snapshot(of: objectID) }
                try changes.checkVersions { stored[$0]?.version }
                var constraints = LMDBConstraintLookup(store: self, loader: loader)
                try changes.checkUniqueness(schema: model, storeName: storeName) { try constraints.matches($0, $1) }
                for change in changes.inserted {
                    try put(
                        Snapshot(objectID: change.objectID, values: change.values, version: 1), replacing: nil, loader)
                    try putMembers(change, loader)
                }
                try moveCounters(past: changes.inserted.map(\.objectID), loader)
                for change in changes.updated {
                    guard let old = stored[change.objectID] else { continue }
                    let version = try StoredCounter.next(
                        after: old.version, "The version of \(old.objectID) in \(storeName)")
                    let new = Snapshot(objectID: change.objectID, values: change.values, version: version)
                    try put(new, replacing: old, loader)
                    try putMembers(change, loader)
                }
                for deletion in changes.deleted {
                    guard let old = stored[deletion.objectID] else { continue }
                    try remove(old, loader)
                }
                if options.tracksPersistentHistory, changes.changesObjects, let history = databases.history {
                    let number = try recordHistory(
                        of: changes, stored: stored, history: history, in: loader.transaction)
                    note(number)
                }
                var metadata: StoreMetadata?
                if let userInfo = changes.userInfo {
                    var written = try LMDBStoreFile.readMetadata(
                        in: loader.transaction, databases.meta, path: environment.path)
                    written.userInfo = userInfo
                    try LMDBStoreFile.writeMetadata(written, in: loader.transaction, databases.meta)
                    metadata = written
                }
                // A commit that found the map full runs again once it has grown: the decision
                // stands, and is not asked twice.
                if !decided {
                    try decision()
                    decided = true
                }
                return metadata
            }
        }
        if let saved { setMetadata(saved) }
    }

    /// Writes `snapshot`'s record and index entries, removing those of `old`; its external binary
    /// data is marked and written as ``ExternalBinaryData`` lays it out.
    func put(_ snapshot: Snapshot, replacing old: Snapshot?, _ loader: LMDBObjectLoader) throws {
        guard let (_, database, key) = loader.location(of: snapshot.objectID) else { return }
        let newKeys = indexes.keys(of: snapshot)
        if let old {
            let kept = Set(newKeys)
            for indexKey in indexes.keys(of: old) where !kept.contains(indexKey) {
                try loader.transaction.delete(databases.index, indexKey)
            }
        }
        let record = try externalAttributes[snapshot.objectID.entityName].map { try loader.marked(snapshot, $0) }
        try loader.transaction.put(database, LMDBLayout.key(key), layout.encode(record ?? snapshot))
        for indexKey in newKeys { try loader.transaction.put(databases.index, indexKey, []) }
    }

    /// Writes the to-many memberships `change` gives.
    private func putMembers(_ change: StoreChangeSet.ObjectChange, _ loader: LMDBObjectLoader) throws {
        for (relationship, members) in change.toManyRelationships {
            guard let key = loader.membersKey(of: change.objectID, relationship: relationship) else { continue }
            if members.isEmpty {
                try loader.transaction.delete(databases.toMany, key)
            } else {
                try loader.transaction.put(databases.toMany, key, layout.encode(members: members))
            }
        }
    }

    /// Removes `old`'s record, index entries and to-many memberships.
    func remove(_ old: Snapshot, _ loader: LMDBObjectLoader) throws {
        guard let (_, database, key) = loader.location(of: old.objectID),
            let entity = model.entitiesByName[old.objectID.entityName]
        else { return }
        for indexKey in indexes.keys(of: old) { try loader.transaction.delete(databases.index, indexKey) }
        try loader.transaction.delete(database, LMDBLayout.key(key))
        try loader.removeExternalValues(of: old.objectID)
        for relationship in entity.relationships where relationship.isToMany {
            guard let membersKey = loader.membersKey(of: old.objectID, relationship: relationship.name) else {
                continue
            }
            try loader.transaction.delete(databases.toMany, membersKey)
        }
    }
}
