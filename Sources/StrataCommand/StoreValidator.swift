import Strata

/// Checks every object of a store against the model: attribute types, required values,
/// relationship counts and references to objects the store does not hold.
struct StoreValidator {
    let contents: StoreContents

    /// The problems found, one line each, and how many objects were checked.
    func validate() throws -> (problems: [String], objectCount: Int) {
        var snapshots: [(EntitySchema, Snapshot)] = []
        for name in contents.entityNames {
            guard let entity = contents.schema.entitiesByName[name] else { continue }
            snapshots += try contents.snapshots(of: name).map { (entity, $0) }
        }
        let held = Set(snapshots.map(\.1.objectID))
        var problems: [String] = []
        for (entity, snapshot) in snapshots {
            let owner = "\(entity.name) \(snapshot.objectID.uriString)"
            problems += attributeProblems(of: snapshot, entity: entity).map { "\(owner): \($0)" }
            let members = try contents.toManyMembers(of: snapshot, entity: entity)
            problems += relationshipProblems(of: snapshot, entity: entity, members: members, held: held).map {
                "\(owner): \($0)"
            }
        }
        return (problems, snapshots.count)
    }

    private func attributeProblems(of snapshot: Snapshot, entity: EntitySchema) -> [String] {
        var problems: [String] = []
        for attribute in entity.attributes where !attribute.isTransient {
            let value = snapshot.values[attribute.name] ?? .null
            if value.isNull {
                if !attribute.isOptional { problems.append("'\(attribute.name)' is required but has no value") }
                continue
            }
            let expected = attribute.type == .transformable ? AttributeType.binary : attribute.type
            if let actual = value.attributeType, actual != expected, expected != .undefined {
                problems.append("'\(attribute.name)' holds a \(actual) value where the model says \(attribute.type)")
            }
        }
        return problems
    }

    private func relationshipProblems(
        of snapshot: Snapshot, entity: EntitySchema, members: [String: [ObjectID]], held: Set<ObjectID>
    ) -> [String] {
        var problems: [String] = []
        let storeIdentifier = contents.store.identifier
        func check(_ target: ObjectID, in relationship: RelationshipDescription) {
            if target.storeIdentifier == storeIdentifier, !held.contains(target) {
                problems.append("'\(relationship.name)' refers to \(target.uriString), which the store does not hold")
            } else if let destination = contents.schema.entitiesByName[target.entityName],
                !destination.isKind(of: relationship.destinationEntityName)
            {
                problems.append(
                    "'\(relationship.name)' refers to a \(target.entityName) where the model says "
                        + relationship.destinationEntityName)
            }
        }
        for relationship in entity.relationships where !relationship.isTransient {
            if relationship.isToMany {
                let targets = members[relationship.name] ?? []
                for target in targets { check(target, in: relationship) }
                if (!targets.isEmpty || !relationship.isOptional) && targets.count < relationship.minCount {
                    problems.append(
                        "'\(relationship.name)' has \(targets.count) members, fewer than its minimum "
                            + "\(relationship.minCount)")
                }
                if relationship.maxCount > 0 && targets.count > relationship.maxCount {
                    problems.append(
                        "'\(relationship.name)' has \(targets.count) members, more than its maximum "
                            + "\(relationship.maxCount)")
                }
                if targets.isEmpty && !relationship.isOptional {
                    problems.append("'\(relationship.name)' is required but has no members")
                }
            } else if case .objectID(let target) = snapshot.values[relationship.name] {
                check(target, in: relationship)
            } else if !relationship.isOptional {
                problems.append("'\(relationship.name)' is required but has no value")
            }
        }
        return problems
    }
}
