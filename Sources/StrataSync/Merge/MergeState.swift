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

    /// An empty state under `rules`.
    public init(rules: MergeRules = MergeRules()) { self.rules = rules }

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
    mutating func restore(_ merged: MergedObject, for object: GlobalID) { objects[object] = merged }

    /// Whether `object` exists: some operation named it, and the rules do not count it deleted.
    public func isAlive(_ object: GlobalID) -> Bool {
        guard let merged = objects[object] else { return false }
        return merged.isAlive(under: rules.deleteRule(of: merged.entity))
    }

    /// What a replica shows of `object`, or `nil` when it does not exist: its values, with
    /// references to objects that no longer exist empty (they were nullified), and its to-many
    /// members but those that no longer exist.
    public func resolved(_ object: GlobalID) -> ResolvedObject? {
        guard isAlive(object), let merged = objects[object] else { return nil }
        let values = merged.registers.mapValues { resolvedValue($0.value) }
        var relationships: [String: Set<GlobalID>] = [:]
        for (key, set) in merged.relationships {
            relationships[key] = set.members.filter { !isDeleted($0) }
        }
        return ResolvedObject(entity: merged.entity, values: values, relationships: relationships)
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

    /// `value` as a replica shows it: a reference to a deleted object (or one of `deleting`) is
    /// empty.
    func resolvedValue(_ value: SyncValue, deleting: Set<GlobalID> = []) -> SyncValue {
        if case .reference(let target?) = value, isDeleted(target, deleting: deleting) { return .reference(nil) }
        return value
    }
}
