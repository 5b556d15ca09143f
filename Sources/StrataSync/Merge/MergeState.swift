/// The merged state of every synced object a replica or the hub knows of: the operations
/// applied so far, folded by the merge rules (``MergeRules``).
///
/// Applying the same operations in any order, each any number of times, gives the same state
/// (for operations that agree on each object's entity: the first to arrive fixes it, so the hub
/// refuses an operation that does not):
/// every rule keeps the later of two writes by timestamp, or the union of two sets of tags, and
/// both are indifferent to order and repetition. That is what lets replicas exchange operations
/// in whatever order the network delivers them and still converge. The state is `Codable`,
/// so that a replica or the hub can keep it between runs.
public struct MergeState: Sendable, Hashable, Codable {
    /// The rules every replica and the hub apply alike.
    public let rules: MergeRules
    /// Every object an operation named, by global ID.
    public private(set) var objects: [GlobalID: MergedObject] = [:]
    /// The values of uniqueness constraints each object holds, found from ``objects``.
    var uniqueHolders = UniqueHolders()
    /// The objects each object's required relationships name, found from ``objects``.
    var requiredDependents = ObjectIndex<GlobalID>()

    private enum CodingKeys: String, CodingKey { case rules, objects }

    /// An empty state under `rules`.
    public init(rules: MergeRules = MergeRules()) { self.rules = rules }

    /// The state `decoder` holds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rules = try container.decode(MergeRules.self, forKey: .rules)
        for (id, merged) in try container.decode([GlobalID: MergedObject].self, forKey: .objects) {
            restore(merged, for: id)
        }
    }

    /// Applies `operation`.
    ///
    /// - Throws: ``SyncError/Code/entityMismatch`` when the operation's object is known as an
    ///   object of another entity; the state is left as it was.
    @discardableResult
    public mutating func apply(_ operation: SyncOperation) throws -> MergeOutcome {
        if let known = objects[operation.object], known.entity != operation.entity {
            throw SyncError(
                code: .entityMismatch,
                message:
                    "An operation stamped \(operation.stamp) names \(operation.object) as a '\(operation.entity)', "
                    + "which is known as a '\(known.entity)'.")
        }
        defer { noteConstrainedValues(of: operation.object) }
        var merged = objects[operation.object] ?? MergedObject(entity: operation.entity)
        guard rules.deleteRule(of: operation.entity) == .deleteWins else {
            defer { objects[operation.object] = merged }
            return merged.apply(operation)
        }
        // Under deleteWins a deleted object stays deleted: only its latest deletion is kept, and
        // what is written to it afterwards changes nothing, in whatever order it arrives.
        if let deletion = merged.deletion, operation.change != .delete { return .superseded(by: deletion) }
        let outcome = merged.apply(operation)
        if merged.deletion != nil { merged.dropAllButDeletion() }
        objects[operation.object] = merged
        return outcome
    }

    /// Puts back `merged` as the state of `object`, as it was kept.
    mutating func restore(_ merged: MergedObject, for object: GlobalID) {
        objects[object] = merged
        noteConstrainedValues(of: object)
    }

    /// Whether `object` exists: some operation named it, and the rules do not count it deleted.
    public func isAlive(_ object: GlobalID) -> Bool {
        guard let merged = objects[object] else { return false }
        return merged.isAlive(under: rules.deleteRule(of: merged.entity))
    }

    /// What a replica shows of `object`, or `nil` when it does not exist, shows as another
    /// (``uniquenessGroup(of:)``) or lacks an object it cannot be without (``shows(_:)``): its
    /// values, with references to objects that are not shown empty (they were nullified), and
    /// its to-many members but those that are not shown, and the order of the members placed in
    /// its ordered relationships. An object that shows as one with others has the latest write
    /// of each key among them, the members of all their relationships and the latest placement
    /// of each member; references to any of them name it.
    public func resolved(_ object: GlobalID) -> ResolvedObject? {
        guard isAlive(object), let merged = objects[object] else { return nil }
        let group = uniquenessGroup(of: object)
        guard group.first == object, hasRequiredReferences(group, visiting: []) else { return nil }
        let values = registers(of: group).mapValues { resolvedValue($0.value) }
        var relationships: [String: Set<GlobalID>] = [:]
        for member in group {
            for (key, set) in objects[member]?.relationships ?? [:] {
                relationships[key, default: []].formUnion(
                    set.members.lazy.filter { !self.isDeleted($0) }.map(shownObject).filter(showsOrMayYet))
            }
        }
        return ResolvedObject(
            entity: merged.entity, values: values, relationships: relationships,
            orders: placements(of: group).mapValues(Self.order(of:)))
    }

    /// Whether `object` shows, or the object of its group that shows it does
    /// (``uniquenessGroup(of:)``): it exists, and each of the group's required
    /// to-one relationships names an object that is shown, or one no operation named yet
    /// (its operations may still arrive). An object whose required reference is empty or names
    /// a deleted object is not shown, as a cascade would have deleted it; it comes back if the
    /// object does (under ``MergeRules/DeleteRule/updateWins``). Objects that require each
    /// other in a cycle are shown while they exist.
    public func shows(_ object: GlobalID) -> Bool {
        isAlive(object) && hasRequiredReferences(uniquenessGroup(of: object), visiting: [])
    }

    private func hasRequiredReferences(_ group: [GlobalID], visiting: Set<GlobalID>) -> Bool {
        guard let first = group.first, let entity = objects[first]?.entity,
            let keys = rules.requiredReferences[entity], !keys.isEmpty
        else { return true }
        let registers = registers(of: group)
        let visiting = visiting.union(group)
        for key in keys {
            guard case .reference(let target?)? = registers[key]?.value else { return false }
            let shown = shownObject(target)
            if visiting.contains(shown) || objects[shown] == nil { continue }
            guard isAlive(shown), hasRequiredReferences(uniquenessGroup(of: shown), visiting: visiting) else {
                return false
            }
        }
        return true
    }

    /// Every object that exists, resolved, by global ID.
    public func resolvedObjects() -> [GlobalID: ResolvedObject] {
        var resolved: [GlobalID: ResolvedObject] = [:]
        for id in objects.keys { resolved[id] = self.resolved(id) }
        return resolved
    }

    /// Whether `object` is known and deleted by the rules, or among `deleting`. An object no
    /// operation named yet is not: its operations may still arrive.
    func isDeleted(_ object: GlobalID, deleting: Set<GlobalID> = []) -> Bool {
        deleting.contains(object) || (objects[object] != nil && !isAlive(object))
    }

    /// `value` as a replica shows it: a reference to a deleted object (or one of `deleting`) or
    /// one that is not shown is empty, one to an object that shows as another names that one.
    func resolvedValue(_ value: SyncValue, deleting: Set<GlobalID> = []) -> SyncValue {
        guard case .reference(let target?) = value else { return value }
        guard !isDeleted(target, deleting: deleting) else { return .reference(nil) }
        let shown = shownObject(target)
        return .reference(showsOrMayYet(shown) ? shown : nil)
    }

    /// Whether `object` is shown, or no operation named it yet.
    func showsOrMayYet(_ object: GlobalID) -> Bool { objects[object] == nil || shows(object) }
}
