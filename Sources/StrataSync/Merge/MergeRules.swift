/// The rules that settle concurrent changes, the same on every replica and in the hub.
///
/// Attributes and to-one relationships: the write with the latest timestamp wins (timestamps
/// order by clock, then by replica ID). To-many relationships: an addition wins over a
/// concurrent removal (``ObservedRemoveSet``). A deletion against a concurrent update: as
/// ``DeleteRule`` says for the entity, the deletion by default.
public struct MergeRules: Sendable, Hashable, Codable {
    /// How a deletion meets an update of the same object.
    public enum DeleteRule: String, Sendable, Hashable, Codable {
        /// A deleted object stays deleted, whatever was written to it before or after.
        case deleteWins
        /// A write stamped after the deletion brings the object back, with every value
        /// written to it.
        case updateWins
    }

    /// The rule for entities ``deleteRules`` does not name.
    public var defaultDeleteRule: DeleteRule
    /// The rule of each entity that has its own, by entity name.
    public var deleteRules: [String: DeleteRule]

    /// Rules with `defaultDeleteRule` (the deletion wins unless told otherwise) and
    /// `deleteRules` by entity name.
    public init(defaultDeleteRule: DeleteRule = .deleteWins, deleteRules: [String: DeleteRule] = [:]) {
        self.defaultDeleteRule = defaultDeleteRule
        self.deleteRules = deleteRules
    }

    /// The deletion rule of `entity`.
    public func deleteRule(of entity: String) -> DeleteRule { deleteRules[entity] ?? defaultDeleteRule }
}
