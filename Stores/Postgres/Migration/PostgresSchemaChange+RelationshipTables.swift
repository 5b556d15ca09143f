import Strata

extension PostgresSchemaChange {
    /// The kept entities whose new entity has `relationship` of `entity`, and the one old
    /// relationship they all fill it from; `nil` when none fills it (the table starts empty).
    private func filling(_ relationship: String, of entity: String, table: String) throws(InPlaceMapping.Declined)
        -> (owner: InPlaceMapping.Entity, key: String)?
    {
        let owners = mapping.entitiesByDestination.values.filter {
            $0.destination.isKind(of: entity) && $0.destination.relationshipsByName[relationship] != nil
        }
        let keys = Set(owners.map { $0.relationships[relationship] })
        guard keys.count <= 1 else {
            throw InPlaceMapping.Declined(description: "table \(table) would be filled for some of its entities only")
        }
        guard let owner = owners.first, let key = owner.relationships[relationship] else { return nil }
        return (owner, key)
    }

    /// Plans a join table of the new layout from the old join table of the relationship that
    /// fills it: renamed when its name changes, its columns swapped when the other side now
    /// names it, an order it no longer keeps cleared.
    mutating func plan(_ table: PostgresLayout.JoinTable, index: Int) throws(InPlaceMapping.Declined) -> TablePlan {
        let create = destination.createStatement(of: table)
        guard let (owner, key) = try filling(table.relationship, of: table.entity, table: table.name) else {
            return TablePlan(name: table.name, oldName: nil, index: index, create: create)
        }
        guard let relationship = owner.source.relationshipsByName[key],
            case .joinTable(let old, let ownColumn, _, let ownOrder)? = source.toManyStorage(
                of: relationship, in: owner.source, model: sourceModel)
        else {
            throw InPlaceMapping.Declined(description: "join table \(table.name) does not come from one join table")
        }
        try checkEveryObjectKept(of: relationship, in: owner.source, from: table.entity, to: table.destinationEntity)
        var plan = TablePlan(name: table.name, oldName: old.name, index: index, create: create)
        let name = source.qualified(plan.workingName)
        let swapped = ownColumn != "source"
        let memberOrdered = swapped ? old.sourceOrdered : old.destinationOrdered
        guard ownOrder != nil || !table.sourceOrdered, memberOrdered || !table.destinationOrdered else {
            throw InPlaceMapping.Declined(description: "join table \(table.name) keeps an order its source does not")
        }
        if swapped {
            plan.alterations += [
                "ALTER TABLE \(name) RENAME COLUMN source TO _strata_source",
                "ALTER TABLE \(name) RENAME COLUMN destination TO source",
                "ALTER TABLE \(name) RENAME COLUMN _strata_source TO destination",
                "ALTER TABLE \(name) RENAME COLUMN source_order TO _strata_source_order",
                "ALTER TABLE \(name) RENAME COLUMN destination_order TO source_order",
                "ALTER TABLE \(name) RENAME COLUMN _strata_source_order TO destination_order",
            ].map(Operation.sql)
            // The key leads with the owner's column, which lookups of members name.
            plan.alterations.append(.replacePrimaryKey(table: plan.workingName, columns: ["source", "destination"]))
        }
        var cleared: [String] = []
        if ownOrder != nil && !table.sourceOrdered { cleared.append("source_order = NULL") }
        if memberOrdered && !table.destinationOrdered { cleared.append("destination_order = NULL") }
        if !cleared.isEmpty { plan.alterations.append(.sql("UPDATE \(name) SET " + cleared.joined(separator: ", "))) }
        return plan
    }

    /// Declines unless every object either side of the old relationship may hold is kept as an
    /// object of the new table's entities: a join table's rows do not say whose they are.
    private func checkEveryObjectKept(
        of relationship: RelationshipDescription, in entity: EntitySchema, from newOwner: String, to newMember: String
    ) throws(InPlaceMapping.Declined) {
        let owner = source.declaringEntity(of: relationship.name, from: entity.name, model: sourceModel)
        for (oldEntity, newEntity) in [(owner, newOwner), (relationship.destinationEntityName, newMember)] {
            guard let root = sourceModel.entitiesByName[oldEntity] else { continue }
            for name in [root.name] + root.descendantNames
            where sourceModel.entitiesByName[name]?.description.isAbstract == false {
                guard mapping.entitiesBySource[name]?.destination.isKind(of: newEntity) == true else {
                    throw InPlaceMapping.Declined(
                        description: "'\(entity.name).\(relationship.name)' holds '\(name)' objects, which are not "
                            + "kept as objects it may hold")
                }
            }
        }
    }

    /// Plans a reference table of the new layout from the old one of the to-many leading to
    /// another store that fills it: the other store's objects keep their IDs, so its rows stay.
    mutating func plan(_ table: PostgresLayout.ReferenceTable, index: Int) throws(InPlaceMapping.Declined)
        -> TablePlan
    {
        let create = destination.createStatement(of: table)
        guard let (owner, key) = try filling(table.relationship, of: table.entity, table: table.name) else {
            return TablePlan(name: table.name, oldName: nil, index: index, create: create)
        }
        guard let relationship = owner.source.relationshipsByName[key],
            case .references(let old)? = source.toManyStorage(of: relationship, in: owner.source, model: sourceModel)
        else {
            throw InPlaceMapping.Declined(
                description: "reference table \(table.name) does not come from one to-many leading to another store")
        }
        guard old.isOrdered || !table.isOrdered else {
            throw InPlaceMapping.Declined(
                description: "reference table \(table.name) keeps an order its source does not")
        }
        var plan = TablePlan(name: table.name, oldName: old.name, index: index, create: create)
        if old.isOrdered && !table.isOrdered {
            plan.alterations.append(.sql("UPDATE \(source.qualified(plan.workingName)) SET position = NULL"))
        }
        return plan
    }
}
