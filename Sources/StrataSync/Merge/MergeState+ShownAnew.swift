extension MergeState {
    /// The objects whose showing changes as the operations of a batch applied: those of
    /// `groupsBefore` (each object of a constrained entity the batch named, with its uniqueness
    /// group before) moved to another group, and `deleted` (those it deleted) and `touched`
    /// (those it named, under ``MergeRules/DeleteRule/updateWins``, which a write brings back)
    /// changed whether objects requiring them show. Answers the members of the groups before
    /// and after, the objects requiring those that changed, and the objects whose references
    /// or members name any of them — and so on through those that are bound by constraints
    /// themselves.
    func objectsShownAnew(
        groupsBefore: [GlobalID: [GlobalID]], deleted: Set<GlobalID>, touched: Set<GlobalID>
    ) -> Set<GlobalID> {
        var regrouped = Set<GlobalID>()
        for (object, before) in groupsBefore {
            let after = uniquenessGroup(of: object)
            if after != before { regrouped.formUnion(before + after) }
        }
        if uniqueHolders.keysWithReferences > 0 { regrouped.formUnion(deleted) }
        var shown = regrouped
        if !requiredDependents.isEmpty {
            let revived = touched.filter { objects[$0].map { rules.deleteRule(of: $0.entity) == .updateWins } ?? false }
            var frontier = Array(deleted.union(revived).union(regrouped))
            while let next = frontier.popLast() {
                for dependent in requiredDependents.dependents(of: next) where shown.insert(dependent).inserted {
                    frontier.append(dependent)
                }
            }
        }
        guard !regrouped.isEmpty else { return shown }
        var frontier = regrouped
        while !frontier.isEmpty {
            var next = Set<GlobalID>()
            for referrer in referrers(to: frontier) where shown.insert(referrer).inserted {
                next.insert(referrer)
                for member in uniquenessGroup(of: referrer) where shown.insert(member).inserted { next.insert(member) }
            }
            frontier = next
        }
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

    /// The objects whose registers or to-many members name one of `targets`.
    private func referrers(to targets: Set<GlobalID>) -> [GlobalID] {
        objects.compactMap { id, merged in
            let names =
                merged.registers.values.contains { register in
                    if case .reference(let target?) = register.value { targets.contains(target) } else { false }
                } || merged.relationships.values.contains { !targets.isDisjoint(with: $0.members) }
            return names ? id : nil
        }
    }
}
