/// What operations about to be applied may change of which objects a replica shows: the
/// uniqueness groups of the constrained objects they name, and the objects they delete or may
/// bring back. Take it before applying them; ``MergeState/objectsShownAnew(since:)`` after.
struct ShowingBefore {
    /// The uniqueness group of each constrained object the operations name.
    var groups: [GlobalID: [GlobalID]] = [:]
    /// The objects the operations delete.
    var deleted = Set<GlobalID>()
    /// The deleted objects the operations write to under `updateWins`, which may come back.
    var revived = Set<GlobalID>()
}

extension MergeState {
    /// What `operations` may change of which objects show, as things stand before they apply.
    func showingBefore(_ operations: some Sequence<SyncOperation>) -> ShowingBefore {
        var before = ShowingBefore()
        for operation in operations {
            if operation.change == .delete { before.deleted.insert(operation.object) }
            if operation.change != .delete, rules.deleteRule(of: operation.entity) == .updateWins,
                objects[operation.object] != nil, !isAlive(operation.object)
            {
                before.revived.insert(operation.object)
            }
            if rules.uniquenessConstraints[operation.entity] != nil, before.groups[operation.object] == nil {
                before.groups[operation.object] = uniquenessGroup(of: operation.object)
            }
        }
        return before
    }

    /// The objects whose showing changed since `before`, beyond those the operations named:
    /// the members of uniqueness groups before and after that moved, and of the groups of
    /// objects whose constraint keys name those (or name deleted objects); the objects
    /// requiring a deleted, regrouped or revived object, and those requiring them; the revived
    /// objects; and the objects whose references or members name any object regrouped or
    /// revived (or requiring a revived one), found in one pass over the state, made only when
    /// there is one.
    func objectsShownAnew(since before: ShowingBefore) -> Set<GlobalID> {
        var regrouped = Set<GlobalID>()
        for (object, groupBefore) in before.groups {
            let after = uniquenessGroup(of: object)
            if after != groupBefore { regrouped.formUnion(groupBefore + after) }
        }
        var frontier = Array(regrouped.union(before.deleted))
        while let next = frontier.popLast() {
            for holder in uniqueHolders.holders(naming: next) {
                for member in uniquenessGroup(of: holder) + [holder] where regrouped.insert(member).inserted {
                    frontier.append(member)
                }
            }
        }
        let revived = before.revived.filter(isAlive)
        var shown = regrouped.union(revived)
        var dependents = Set<GlobalID>()
        if !requiredDependents.isEmpty {
            var frontier = Array(before.deleted.union(revived).union(regrouped))
            while let next = frontier.popLast() {
                for dependent in requiredDependents.holders(of: next) where dependents.insert(dependent).inserted {
                    frontier.append(dependent)
                }
            }
            shown.formUnion(dependents)
        }
        // Objects regrouped or back name others anew; so do those requiring what came back.
        var named = regrouped.union(revived)
        if !revived.isEmpty { named.formUnion(dependents) }
        if !named.isEmpty { shown.formUnion(referrers(to: named)) }
        return shown
    }

    /// Records the values of the uniqueness constraints `object` holds now, and the objects
    /// its required relationships name.
    mutating func noteConstrainedValues(of object: GlobalID) {
        guard let merged = objects[object] else { return }
        if let keys = rules.requiredReferences[merged.entity] {
            let targets = keys.compactMap { key -> GlobalID? in
                if case .reference(let target?)? = merged.registers[key]?.value { target } else { nil }
            }
            requiredDependents.set(targets, for: object)
        }
        noteUniqueValues(of: object)
    }

    private mutating func noteUniqueValues(of object: GlobalID) {
        guard let merged = objects[object], let constraints = rules.uniquenessConstraints[merged.entity] else { return }
        guard isAlive(object) else {
            uniqueHolders.set([], for: object)
            return
        }
        let keys = constraints.compactMap { constraint -> UniqueHolders.Key? in
            var values: [SyncValue] = []
            for key in constraint.keys {
                guard let value = merged.registers[key]?.value else { return nil }
                switch value {
                case .attribute(let attribute) where attribute.isNull: return nil
                case .reference(nil): return nil
                default: values.append(value)
                }
            }
            return UniqueHolders.Key(constraint: constraint, values: values)
        }
        uniqueHolders.set(keys, for: object)
    }

    /// The objects whose registers, to-many members or placements name one of `targets`.
    private func referrers(to targets: Set<GlobalID>) -> [GlobalID] {
        objects.compactMap { id, merged in
            let names =
                merged.registers.values.contains { register in
                    if case .reference(let target?) = register.value { targets.contains(target) } else { false }
                } || merged.relationships.values.contains { !targets.isDisjoint(with: $0.members) }
                || merged.placements.values.contains { placed in targets.contains { placed[$0] != nil } }
            return names ? id : nil
        }
    }
}
