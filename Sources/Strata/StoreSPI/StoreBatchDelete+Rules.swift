/// Helpers for stores that carry out batch deletions themselves (``StoreBatchDelete``).
extension StoreBatchDeleteResult.Denial {
    /// The denials of the deny rule of `relationship` that `pairs` break: each pair a deleted
    /// object and an object its relationship holds that stays, grouped by deleted object (the
    /// pairs of one object next to each other). One denial per deleted object, naming the first
    /// object of its pairs and how many there are.
    public static func grouping(
        _ pairs: [(objectID: ObjectID, destination: ObjectID)], relationship: String
    ) -> [Self] {
        var denials: [Self] = []
        var start = 0
        while start < pairs.count {
            var end = start
            while end < pairs.count && pairs[end].objectID == pairs[start].objectID { end += 1 }
            denials.append(
                Self(
                    objectID: pairs[start].objectID, relationship: relationship,
                    destination: pairs[start].destination, remainingCount: end - start))
            start = end
        }
        return denials
    }
}

/// An object a batch deletion's nullify rules changed, with the relationships they emptied of
/// deleted objects.
public struct NullifiedObject: Sendable, Hashable {
    public let objectID: ObjectID
    public var relationships: Set<String>

    /// Creates one.
    public init(objectID: ObjectID, relationships: Set<String>) {
        self.objectID = objectID
        self.relationships = relationships
    }

    /// The objects of `rows`, each an object and a relationship emptied, grouped by object (the
    /// rows of one object next to each other), in the order of `rows`.
    public static func grouping(_ rows: [(objectID: ObjectID, relationship: String)]) -> [Self] {
        var changed: [Self] = []
        for row in rows {
            if changed.last?.objectID == row.objectID {
                changed[changed.count - 1].relationships.insert(row.relationship)
            } else {
                changed.append(Self(objectID: row.objectID, relationships: [row.relationship]))
            }
        }
        return changed
    }
}

extension ModelSchema {
    /// The stored relationships whose delete rule is `rule` of the entities named
    /// `entityNames`, each with its entity, in the entities' order: what a store carrying out
    /// a batch deletion itself follows for that rule.
    public func relationships(
        of entityNames: [String], withDeleteRule rule: RelationshipDescription.DeleteRule
    ) -> [(entity: EntitySchema, relationship: RelationshipDescription)] {
        entityNames.compactMap { entitiesByName[$0] }.flatMap { entity in
            entity.relationships.filter { !$0.isTransient && $0.deleteRule == rule }.map { (entity, $0) }
        }
    }
}
