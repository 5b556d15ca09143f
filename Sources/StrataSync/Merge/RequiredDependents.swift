/// Which objects name which through their required to-one relationships
/// (``MergeRules/requiredReferences``), as their latest writes have them: the index that finds
/// the objects to show again when an object they cannot be without is deleted or comes back.
struct RequiredDependents: Sendable, Hashable {
    private var dependents: [GlobalID: Set<GlobalID>] = [:]
    private var targets: [GlobalID: [GlobalID]] = [:]

    /// Whether no object names another through a required relationship.
    var isEmpty: Bool { targets.isEmpty }

    /// The objects naming `target` through a required relationship.
    func dependents(of target: GlobalID) -> Set<GlobalID> { dependents[target] ?? [] }

    /// Records that `object` names `newTargets` through its required relationships, and no others.
    mutating func set(_ newTargets: [GlobalID], for object: GlobalID) {
        let previous = targets[object] ?? []
        guard previous != newTargets else { return }
        for target in previous {
            dependents[target]?.remove(object)
            if dependents[target]?.isEmpty == true { dependents[target] = nil }
        }
        for target in newTargets { dependents[target, default: []].insert(object) }
        targets[object] = newTargets.isEmpty ? nil : newTargets
    }
}
