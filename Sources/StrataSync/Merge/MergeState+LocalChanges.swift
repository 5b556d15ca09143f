extension MergeState {
    /// The operations that bring `object`'s merged state to what this replica's store shows of
    /// it now, all stamped `stamp` (when the replica's change was made): an `insert` for an object
    /// the merged state does not know, a `set` for each value
    /// of `shown` that differs from the merged one, an `add` for each member the relationship
    /// lacks, a `remove` observing the additions of each member `shown` no longer has, a
    /// `delete` when `shown` is `nil` and the object exists.
    ///
    /// Keys `shown` does not name are left as they are: a replica on an older model version
    /// never erases what it does not know. References and members that name deleted objects
    /// compare as gone, so a store that has applied a deletion makes no operation for it. An
    /// object the rules count deleted gives no operation under ``MergeRules/DeleteRule/deleteWins``
    /// (the replica's store is to lose it); under ``MergeRules/DeleteRule/updateWins`` its changed
    /// values bring it back.
    ///
    /// - Throws: ``SyncError/Code/entityMismatch`` when `shown` names another entity than the
    ///   one the object is known as.
    public func operations(bringing object: GlobalID, to shown: ResolvedObject?, at stamp: SyncTimestamp) throws
        -> [SyncOperation]
    {
        try operations(bringing: object, to: shown, at: stamp, deleting: [])
    }

    /// The operations that bring each object of `objects` to what this replica's store shows of
    /// it, as ``operations(bringing:to:at:)`` gives them, with the objects the store no longer
    /// has (`nil`) counted as deleted for the others: a store that deleted an author and so
    /// emptied its books' references makes one deletion, not a change of each book too.
    public func operations(bringing objects: [GlobalID: ResolvedObject?], at stamp: SyncTimestamp) throws
        -> [SyncOperation]
    {
        let deleting = Set(objects.filter { $0.value == nil && isAlive($0.key) }.keys)
        return try objects.sorted { $0.key < $1.key }.flatMap { id, shown in
            try operations(bringing: id, to: shown, at: stamp, deleting: deleting)
        }
    }

    private func operations(
        bringing object: GlobalID, to shown: ResolvedObject?, at stamp: SyncTimestamp, deleting: Set<GlobalID>
    ) throws -> [SyncOperation] {
        let merged = objects[object]
        guard let shown else {
            guard let merged, isAlive(object) else { return [] }
            return [SyncOperation(object: object, entity: merged.entity, stamp: stamp, change: .delete)]
        }
        if let merged, merged.entity != shown.entity {
            throw SyncError(
                code: .entityMismatch,
                message: "The replica shows \(object) as a '\(shown.entity)', which is known as a '\(merged.entity)'.")
        }
        if merged != nil, !isAlive(object), rules.deleteRule(of: shown.entity) == .deleteWins { return [] }
        func operation(_ change: SyncOperation.Change) -> SyncOperation {
            SyncOperation(object: object, entity: shown.entity, stamp: stamp, change: change)
        }
        var operations = merged == nil ? [operation(.insert)] : []
        for (key, value) in shown.values.sorted(by: { $0.key < $1.key }) {
            let current = merged?.registers[key].map { resolvedValue($0.value, deleting: deleting) }
            if current != value { operations.append(operation(.set(key: key, value: value))) }
        }
        for (key, members) in shown.relationships.sorted(by: { $0.key < $1.key }) {
            let set = merged?.relationships[key] ?? ObservedRemoveSet()
            for member in members.sorted() where !set.contains(member) {
                operations.append(operation(.add(key: key, member: member)))
            }
            for member in set.members.sorted() where !members.contains(member) && !isDeleted(member, deleting: deleting)
            {
                let observed = set.liveTags(of: member).sorted()
                operations.append(operation(.remove(key: key, member: member, observed: observed)))
            }
        }
        return operations
    }
}
