import Strata

/// The rules that settle concurrent changes, the same on every replica and in the hub.
///
/// Attributes and to-one relationships: the write with the latest timestamp wins (timestamps
/// order by clock, then by replica ID). To-many relationships: an addition wins over a
/// concurrent removal (``ObservedRemoveSet``). A deletion against a concurrent update: as
/// ``DeleteRule`` says for the entity, the deletion by default. Objects that hold the same
/// values of a uniqueness constraint (``uniquenessConstraints``), inserted on replicas that had
/// not seen each other's, show as one object (``MergeState/uniquenessGroup(of:)``). An object
/// whose required to-one relationship (``requiredReferences``) names no object that shows is
/// not shown, as a cascade would have deleted it.
public struct MergeRules: Sendable, Hashable, Codable {
    /// A uniqueness constraint as the rules see it: no two objects of `entity` and its
    /// sub-entities show with the same values of `keys`.
    public struct UniquenessConstraint: Sendable, Hashable, Codable {
        /// The entity that declares the constraint.
        public let entity: String
        /// The attributes and to-one relationships whose values together are unique.
        public let keys: [String]

        /// The constraint `entity` declares on `keys`.
        public init(entity: String, keys: [String]) {
            self.entity = entity
            self.keys = keys
        }
    }

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

    /// The uniqueness constraints objects of each entity are bound by, theirs and their
    /// superentities', by entity name. ``SyncEngine`` takes them from the replica's model.
    public var uniquenessConstraints: [String: [UniquenessConstraint]]

    /// The to-one relationships each entity's objects cannot be without — those that are not
    /// optional, of the side of each pair that syncs — by entity name. ``SyncEngine`` takes
    /// them from the replica's model.
    public var requiredReferences: [String: [String]]

    /// Rules with `defaultDeleteRule` (the deletion wins unless told otherwise), `deleteRules`
    /// by entity name, and `uniquenessConstraints` and `requiredReferences` by entity name.
    public init(
        defaultDeleteRule: DeleteRule = .deleteWins, deleteRules: [String: DeleteRule] = [:],
        uniquenessConstraints: [String: [UniquenessConstraint]] = [:], requiredReferences: [String: [String]] = [:]
    ) {
        self.defaultDeleteRule = defaultDeleteRule
        self.deleteRules = deleteRules
        self.uniquenessConstraints = uniquenessConstraints
        self.requiredReferences = requiredReferences
    }

    private enum CodingKeys: String, CodingKey {
        case defaultDeleteRule, deleteRules, uniquenessConstraints, requiredReferences
    }

    /// The rules `decoder` holds; rules kept before there were constraints read as having none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        defaultDeleteRule = try container.decode(DeleteRule.self, forKey: .defaultDeleteRule)
        deleteRules = try container.decode([String: DeleteRule].self, forKey: .deleteRules)
        uniquenessConstraints =
            try container.decodeIfPresent([String: [UniquenessConstraint]].self, forKey: .uniquenessConstraints) ?? [:]
        requiredReferences = try container.decodeIfPresent([String: [String]].self, forKey: .requiredReferences) ?? [:]
    }

    /// These rules with the uniqueness constraints and required to-one relationships of
    /// `schema`'s entities, in place of those they had, naming properties by the keys they sync
    /// under (a renamed property's renaming identifier).
    public func constrained(by schema: ModelSchema) -> MergeRules {
        var rules = self
        rules.uniquenessConstraints = [:]
        rules.requiredReferences = [:]
        for entity in schema.entities where !SyncModel.isSyncEntity(entity.name) {
            let required = entity.relationships.filter {
                !$0.isToMany && !$0.isOptional && ReplicaObjects.syncs($0, in: schema)
            }
            if !required.isEmpty { rules.requiredReferences[entity.name] = required.map(SyncKeys.key(of:)).sorted() }
            let constraints = schema.uniqueKeys(of: entity.name)
            if !constraints.isEmpty {
                rules.uniquenessConstraints[entity.name] = constraints.map { constraint in
                    let declaring = schema.entitiesByName[constraint.entityName] ?? entity
                    return UniquenessConstraint(
                        entity: constraint.entityName,
                        keys: constraint.keys.map { SyncKeys.key(ofProperty: $0, in: declaring) })
                }
            }
        }
        return rules
    }

    /// The deletion rule of `entity`.
    public func deleteRule(of entity: String) -> DeleteRule { deleteRules[entity] ?? defaultDeleteRule }
}
