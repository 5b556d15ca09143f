extension MergeState {
    /// The operations that bring `object`'s merged state to what this replica's store shows of
    /// it now, all stamped `stamp` (when the replica's change was made): an `insert` for an object
    /// the merged state does not know, a `set` for each value
    /// of `shown` that differs from the merged one, an `add` for each member the relationship
    /// lacks, a `remove` observing the additions of each member `shown` no longer has, a `place`
    /// for each member of an ordered relationship that `shown` orders otherwise (the longest run
    /// already in order stays where it is), a `delete` when `shown` is `nil` and the object
    /// exists.
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
        var deleting = Set<GlobalID>()
        for (id, shown) in objects where shown == nil && resolved(id) != nil {
            deleting.formUnion(uniquenessGroup(of: id))
        }
        return try objects.sorted { $0.key < $1.key }.flatMap { id, shown in
            try operations(bringing: id, to: shown, at: stamp, deleting: deleting)
        }
    }

    /// The operations for one object. An object that shows as one with others
    /// (``uniquenessGroup(of:)``) is compared with what they show together; each changed value
    /// and a deletion are written to each of them, a member added to the one shown, a member
    /// removed from each that holds it. A store never shows an object the state does not show (one
    /// shown as another, one without an object it requires), so its absence is no deletion.
    private func operations(
        bringing object: GlobalID, to shown: ResolvedObject?, at stamp: SyncTimestamp, deleting: Set<GlobalID>
    ) throws -> [SyncOperation] {
        let merged = objects[object]
        let group = isAlive(object) ? uniquenessGroup(of: object) : [object]
        func operation(on member: GlobalID, _ change: SyncOperation.Change) -> SyncOperation {
            SyncOperation(
                object: member, entity: objects[member]?.entity ?? shown?.entity ?? "", stamp: stamp, change: change)
        }
        guard let shown else {
            guard resolved(object) != nil else { return [] }
            return group.map { operation(on: $0, .delete) }
        }
        if let merged, merged.entity != shown.entity {
            throw SyncError(
                code: .entityMismatch,
                message: "The replica shows \(object) as a '\(shown.entity)', which is known as a '\(merged.entity)'.")
        }
        if merged != nil, !isAlive(object), rules.deleteRule(of: shown.entity) == .deleteWins { return [] }
        var operations = merged == nil ? [operation(on: object, .insert)] : []
        let registers = registers(of: group)
        for (key, value) in shown.values.sorted(by: { $0.key < $1.key }) {
            let current = registers[key].map { resolvedValue($0.value, deleting: deleting) }
            if current != value { operations += group.map { operation(on: $0, .set(key: key, value: value)) } }
        }
        for (key, members) in shown.relationships.sorted(by: { $0.key < $1.key }) {
            // Each member shown now, with the members of the group's sets it stands for.
            var current: [GlobalID: [(owner: GlobalID, member: GlobalID, tags: Set<SyncTimestamp>)]] = [:]
            for owner in group {
                guard let set = objects[owner]?.relationships[key] else { continue }
                for member in set.members {
                    current[shownObject(member), default: []].append((owner, member, set.liveTags(of: member)))
                }
            }
            for member in members.sorted() where current[member] == nil {
                operations.append(operation(on: object, .add(key: key, member: member)))
            }
            for (member, held) in current.sorted(by: { $0.key < $1.key })
            where !members.contains(member) && showsOrMayYet(member) {
                for (owner, stored, tags) in held.sorted(by: { ($0.owner, $0.member) < ($1.owner, $1.member) })
                where !isDeleted(stored, deleting: deleting) {
                    operations.append(
                        operation(on: owner, .remove(key: key, member: stored, observed: tags.sorted())))
                }
            }
        }
        let placed = shown.orders.isEmpty ? [:] : placements(of: group)
        for (key, order) in shown.orders.sorted(by: { $0.key < $1.key }) {
            for (member, position) in Self.placements(bringing: placed[key] ?? [:], to: order) {
                operations.append(operation(on: object, .place(key: key, member: member, position: position)))
            }
        }
        return operations
    }
}
