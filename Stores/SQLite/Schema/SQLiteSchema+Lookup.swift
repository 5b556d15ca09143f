import Strata

extension SQLiteSchema {
    /// Where the members of a to-many relationship are kept.
    enum ToManyStorage {
        /// In the destination table: rows whose `column` holds the source's primary key (and
        /// `entityColumn`, if any, its entity number), ordered by `orderColumn` when the
        /// relationship is ordered.
        case foreignKey(table: EntityTable, column: String, entityColumn: String?, orderColumn: String?)
        /// In a join table: rows pairing the source's key in `ownColumn` with a member's in
        /// `memberColumn`, ordered by `orderColumn` when the relationship is ordered.
        case joinTable(
            name: String, ownColumn: String, memberColumn: String, orderColumn: String?, memberTable: EntityTable)
        /// In a reference table, for a relationship leading to another store's objects.
        case references(ReferenceTable)
    }

    /// The index in `table.columns` of the column with `role`.
    func columnIndex(_ role: SQLiteColumn.Role, in table: EntityTable) -> Int? {
        table.columns.firstIndex { $0.role == role }
    }

    /// The index in `table.columns` of the column holding to-one `name` of `entity`: its
    /// destination's key, or its URI when it leads to another store's objects.
    func toOneColumnIndex(entity: String, name: String, in table: EntityTable) -> (index: Int, isReference: Bool)? {
        if let index = columnIndex(.toOne(entity: entity, name: name), in: table) { return (index, false) }
        return columnIndex(.reference(entity: entity, name: name), in: table).map { ($0, true) }
    }

    /// The entity among `entity` and its superentities that declares `property`.
    func declaringEntity(of property: String, in entity: EntitySchema, model: ModelSchema) -> String {
        for name in [entity.name] + entity.superentityNames {
            guard let description = model.entitiesByName[name]?.description else { continue }
            if description.attributes.flatMap(\.leafAttributes).contains(where: { $0.name == property })
                || description.relationships.contains(where: { $0.name == property })
            {
                return name
            }
        }
        return entity.name
    }

    /// Where the to-many `relationship` of `entity` keeps its members; `nil` when the layout
    /// has no place for it.
    func toManyStorage(
        of relationship: RelationshipDescription, in entity: EntitySchema, model: ModelSchema
    ) -> ToManyStorage? {
        let owner = declaringEntity(of: relationship.name, in: entity, model: model)
        if let table = referenceTables.first(where: { $0.entity == owner && $0.relationship == relationship.name }) {
            return .references(table)
        }
        guard let destination = model.entitiesByName[relationship.destinationEntityName],
            let destinationTable = tableOfEntity[destination.name]
        else { return nil }
        if let inverseName = relationship.inverseName, let inverse = destination.relationshipsByName[inverseName],
            !inverse.isToMany
        {
            let inverseOwner = declaringEntity(of: inverseName, in: destination, model: model)
            guard let column = columnIndex(.toOne(entity: inverseOwner, name: inverseName), in: destinationTable)
            else { return nil }
            let order = columnIndex(.order(entity: inverseOwner, name: inverseName), in: destinationTable)
            let entityColumn = columnIndex(.toOneEntity(entity: inverseOwner, name: inverseName), in: destinationTable)
            return .foreignKey(
                table: destinationTable, column: destinationTable.columns[column].name,
                entityColumn: entityColumn.map { destinationTable.columns[$0].name },
                orderColumn: relationship.isOrdered ? order.map { destinationTable.columns[$0].name } : nil)
        }
        for join in joinTables {
            if join.entity == owner && join.relationship == relationship.name {
                return .joinTable(
                    name: join.name, ownColumn: join.sourceColumn, memberColumn: join.destinationColumn,
                    orderColumn: relationship.isOrdered ? join.orderColumn : nil, memberTable: destinationTable)
            }
            if join.inverseRelationship == relationship.name
                && model.entitiesByName[owner]?.isKind(of: join.inverseEntity) ?? false
            {
                return .joinTable(
                    name: join.name, ownColumn: join.destinationColumn, memberColumn: join.sourceColumn,
                    orderColumn: relationship.isOrdered ? join.orderColumn : nil, memberTable: destinationTable)
            }
        }
        return nil
    }
}
