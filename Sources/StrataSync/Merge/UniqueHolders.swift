/// Which objects hold which values of the uniqueness constraints, as their latest writes have
/// them: the index ``MergeState`` finds objects that show as one with
/// (``MergeState/uniquenessGroup(of:)``). Only living objects with every key of a constraint
/// set, none of them `null`, hold its values.
struct UniqueHolders: Sendable, Hashable {
    /// Values of one constraint's keys, in its key order. References name objects as written.
    struct Key: Sendable, Hashable {
        let constraint: MergeRules.UniquenessConstraint
        let values: [SyncValue]

        /// The objects the values name, by position.
        var references: [(Int, GlobalID)] {
            values.enumerated().compactMap { index, value in
                if case .reference(let target?) = value { (index, target) } else { nil }
            }
        }

        /// These values with the reference at each position of `replacements` naming another
        /// object.
        func replacing(_ replacements: [(Int, GlobalID)]) -> Key {
            var values = values
            for (index, target) in replacements { values[index] = .reference(target) }
            return Key(constraint: constraint, values: values)
        }
    }

    private var holders: [Key: Set<GlobalID>] = [:]
    private var held: [GlobalID: [Key]] = [:]
    /// The holders of keys naming each object, whose groups change with that object's.
    private var naming: [GlobalID: Set<GlobalID>] = [:]

    /// The objects holding `key`.
    func holders(of key: Key) -> Set<GlobalID> { holders[key] ?? [] }

    /// The objects holding keys that name `target`.
    func holders(naming target: GlobalID) -> Set<GlobalID> { naming[target] ?? [] }

    /// The values `object` holds.
    func keys(of object: GlobalID) -> [Key] { held[object] ?? [] }

    /// Records that `object` holds `keys`, and no others.
    mutating func set(_ keys: [Key], for object: GlobalID) {
        let previous = held[object] ?? []
        guard previous != keys else { return }
        for key in previous {
            holders[key]?.remove(object)
            if holders[key]?.isEmpty == true { holders[key] = nil }
            for (_, target) in key.references {
                naming[target]?.remove(object)
                if naming[target]?.isEmpty == true { naming[target] = nil }
            }
        }
        for key in keys {
            holders[key, default: []].insert(object)
            for (_, target) in key.references { naming[target, default: []].insert(object) }
        }
        held[object] = keys.isEmpty ? nil : keys
    }
}
