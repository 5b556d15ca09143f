extension MergeState {
    /// The objects that show as one with `object`, the one that shows them first; `[object]`
    /// when it shows alone.
    ///
    /// Two replicas that had not seen each other's objects may each insert one with the same
    /// values of a uniqueness constraint (``MergeRules/uniquenessConstraints``). Once both are
    /// known, they show as one: the object inserted first (by timestamp, then by global ID),
    /// with the latest write of each key among them, the members of all their to-many
    /// relationships, and every reference to any of them. The others stay in the merged state,
    /// so that a write a replica made to one before it knew is kept; a replica's change to a
    /// value of the object shown, or its deletion, is written to each of them, so they go on
    /// showing as one. Objects whose constraint keys name objects are matched by the objects
    /// those show as, through any depth (folders unique by name within their parent); where
    /// such keys name each other in a cycle, a key naming an object whose group is being found
    /// matches that object alone.
    ///
    /// Objects that share values through several constraints, or through others that do,
    /// are one group.
    public func uniquenessGroup(of object: GlobalID) -> [GlobalID] { group(of: object, visiting: []) }

    /// The object `object` shows as: the first of its group.
    func shownObject(_ object: GlobalID) -> GlobalID { uniquenessGroup(of: object).first ?? object }

    /// The latest write of each key among `group`'s objects.
    func registers(of group: [GlobalID]) -> [String: MergedObject.Register] {
        guard group.count > 1 else { return group.first.flatMap { objects[$0]?.registers } ?? [:] }
        var latest: [String: MergedObject.Register] = [:]
        for member in group {
            for (key, register) in objects[member]?.registers ?? [:]
            where latest[key].map({ register.supersedes($0) }) ?? true {
                latest[key] = register
            }
        }
        return latest
    }

    /// `object`'s group: the objects reached through the values they hold, values naming objects
    /// matching those naming objects of the same group. `visiting` holds the objects whose
    /// groups are being found further up: a value naming one of them matches only itself.
    private func group(of object: GlobalID, visiting: Set<GlobalID>) -> [GlobalID] {
        guard let merged = objects[object], rules.uniquenessConstraints[merged.entity] != nil else { return [object] }
        var members: Set<GlobalID> = [object]
        var queue = [object]
        while let next = queue.popLast() {
            for key in uniqueHolders.keys(of: next) {
                for holder in holders(matching: key, visiting: visiting.union(members))
                where members.insert(holder).inserted {
                    queue.append(holder)
                }
            }
        }
        guard members.count > 1 else { return [object] }
        return members.sorted(by: showsBefore)
    }

    /// The objects holding `key`'s values or values naming objects of the same groups as its
    /// references; none when one of its references names a deleted object.
    private func holders(matching key: UniqueHolders.Key, visiting: Set<GlobalID>) -> Set<GlobalID> {
        let references = key.references
        guard !references.isEmpty else { return uniqueHolders.holders(of: key) }
        guard !references.contains(where: { isDeleted($0.1) }) else { return [] }
        var variants: [[(Int, GlobalID)]] = [[]]
        for (index, target) in references {
            let aliases = visiting.contains(target) ? [target] : group(of: target, visiting: visiting)
            variants = variants.flatMap { variant in aliases.map { variant + [(index, $0)] } }
        }
        return variants.reduce(into: Set<GlobalID>()) { found, variant in
            found.formUnion(uniqueHolders.holders(of: key.replacing(variant)))
        }
    }

    /// Whether `first` shows a group before `second`: inserted earlier, or at the same time
    /// with a smaller global ID. An object whose insertion has not arrived comes after.
    private func showsBefore(_ first: GlobalID, _ second: GlobalID) -> Bool {
        let firstStamp = objects[first].flatMap { $0.insertion ?? $0.lastWrite }
        let secondStamp = objects[second].flatMap { $0.insertion ?? $0.lastWrite }
        switch (firstStamp, secondStamp) {
        case (let one?, let other?) where one != other: return one < other
        case (.some, nil): return true
        case (nil, .some): return false
        default: return first < second
        }
    }
}
