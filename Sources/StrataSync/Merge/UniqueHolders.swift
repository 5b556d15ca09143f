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

    private var values = ObjectIndex<Key>()
    /// The holders of keys naming each object, whose groups change with that object's.
    private var naming = ObjectIndex<GlobalID>()

    /// The objects holding `key`.
    func holders(of key: Key) -> Set<GlobalID> { values.holders(of: key) }

    /// The objects holding keys that name `target`.
    func holders(naming target: GlobalID) -> Set<GlobalID> { naming.holders(of: target) }

    /// The values `object` holds.
    func keys(of object: GlobalID) -> [Key] { values.entries(of: object) }

    /// Records that `object` holds `keys`, and no others.
    mutating func set(_ keys: [Key], for object: GlobalID) {
        values.set(keys, for: object)
        naming.set(keys.flatMap { $0.references.map(\.1) }, for: object)
    }
}
