import Strata

extension PostgresLayout {
    /// The layout of the entities named by `entityNames` of `model` in the schema `schemaName`.
    /// Whole inheritance trees are laid out, even when the configuration names part of one.
    init(model: ModelSchema, entityNames: Set<String>, schemaName: String) {
        let roots = Set(entityNames.compactMap { model.entitiesByName[$0]?.rootEntityName })
        func depthFirst(_ name: String) -> [String] {
            [name] + (model.entitiesByName[name]?.subentityNames.sorted() ?? []).flatMap(depthFirst)
        }
        let trees = roots.sorted().map(depthFirst)
        var numbers: [String: Int16] = [:]
        for name in trees.flatMap({ $0 }) { numbers[name] = Int16(numbers.count + 1) }
        let builder = Builder(model: model, laidOut: Set(numbers.keys))
        let tables = trees.map(builder.entityTable)
        var tableOfEntity: [String: EntityTable] = [:]
        for table in tables { for entity in table.entities { tableOfEntity[entity] = table } }
        self.init(
            schemaName: schemaName, entityNumbers: numbers, entityTables: tables, tableOfEntity: tableOfEntity,
            joinTables: builder.joinTables(for: trees.flatMap { $0 }),
            referenceTables: builder.referenceTables(for: trees.flatMap { $0 }))
    }
}

/// The rules that turn entities and properties into tables and columns.
private struct Builder {
    let model: ModelSchema
    /// The entities with a table in the layout; a relationship to any other leads out of the
    /// configuration, to objects another store keeps.
    let laidOut: Set<String>

    private func leadsIn(_ relationship: RelationshipDescription) -> Bool {
        laidOut.contains(relationship.destinationEntityName)
    }

    func entityTable(_ tree: [String]) -> PostgresLayout.EntityTable {
        var columns: [PostgresLayout.Column] = [
            .init(name: "_pk", type: .bigint, role: .primaryKey),
            .init(name: "_ent", type: .smallint, role: .entity),
            .init(name: "_opt", type: .bigint, role: .version),
        ]
        var taken = Set(columns.map(\.name))
        func add(_ base: String, _ type: PostgresLayout.ColumnType, _ role: PostgresLayout.Role) {
            var name = PostgresIdentifier.clipped(base)
            var suffix = 1
            while taken.contains(name) {
                suffix += 1
                name = PostgresIdentifier.clipped("\(base)_\(suffix)")
            }
            taken.insert(name)
            columns.append(.init(name: name, type: type, role: role))
        }
        for entityName in tree {
            guard let entity = model.entitiesByName[entityName]?.description else { continue }
            for attribute in entity.attributes.flatMap(\.leafAttributes) where !attribute.isTransient {
                guard let type = Self.columnType(of: attribute.type) else { continue }
                add(attribute.name, type, .attribute(entity: entityName, name: attribute.name))
            }
            for relationship in entity.relationships where !relationship.isTransient && !relationship.isToMany {
                guard leadsIn(relationship) else {
                    add(relationship.name, .text, .reference(entity: entityName, name: relationship.name))
                    continue
                }
                add(relationship.name, .bigint, .toOne(entity: entityName, name: relationship.name))
                if model.entitiesByName[relationship.destinationEntityName]?.subentityNames.isEmpty == false {
                    add(
                        relationship.name + "._ent", .smallint,
                        .toOneEntity(entity: entityName, name: relationship.name))
                }
                if inverse(of: relationship)?.isOrdered == true {
                    add(relationship.name + "._order", .integer, .order(entity: entityName, name: relationship.name))
                }
            }
        }
        return .init(name: tree[0], rootEntity: tree[0], entities: tree, columns: columns)
    }

    /// One join table for each many-to-many pair, named after the side whose entity and
    /// relationship names sort first, and one for each to-many without an inverse.
    func joinTables(for entityNames: [String]) -> [PostgresLayout.JoinTable] {
        var tables: [PostgresLayout.JoinTable] = []
        for entityName in entityNames {
            guard let entity = model.entitiesByName[entityName]?.description else { continue }
            for relationship in entity.relationships
            where relationship.isToMany && !relationship.isTransient && leadsIn(relationship) {
                let inverse = inverse(of: relationship)
                guard inverse?.isToMany != false else { continue }
                if let inverse, (relationship.destinationEntityName, inverse.name) < (entityName, relationship.name) {
                    continue
                }
                tables.append(
                    .init(
                        name: "\(entityName).\(relationship.name)", entity: entityName,
                        relationship: relationship.name, destinationEntity: relationship.destinationEntityName,
                        inverseRelationship: inverse?.name, sourceOrdered: relationship.isOrdered,
                        destinationOrdered: inverse?.isOrdered == true))
            }
        }
        return tables
    }

    /// One reference table for each to-many relationship leading out of the layout.
    func referenceTables(for entityNames: [String]) -> [PostgresLayout.ReferenceTable] {
        entityNames.flatMap { entityName in
            (model.entitiesByName[entityName]?.description.relationships ?? []).filter {
                $0.isToMany && !$0.isTransient && !leadsIn($0)
            }.map { relationship in
                PostgresLayout.ReferenceTable(
                    name: PostgresIdentifier.clipped("\(entityName).\(relationship.name).references"),
                    entity: entityName, relationship: relationship.name, isOrdered: relationship.isOrdered)
            }
        }
    }

    private func inverse(of relationship: RelationshipDescription) -> RelationshipDescription? {
        relationship.inverseName.flatMap {
            model.entitiesByName[relationship.destinationEntityName]?.relationshipsByName[$0]
        }
    }

    /// The column type of an attribute type; `nil` for types that are never stored. Strings,
    /// URIs and object IDs are kept as their UTF-8 bytes: PostgreSQL's `text` cannot hold the
    /// NUL character a Swift string may, and bytes compare in code-point order, as Strata does.
    /// Dates are seconds since 2001-01-01 in a double, as in Core Data's files, which keeps
    /// fractions below a microsecond that `timestamp` would round.
    static func columnType(of type: AttributeType) -> PostgresLayout.ColumnType? {
        switch type {
        case .integer16: .smallint
        case .integer32: .integer
        case .integer64: .bigint
        case .decimal: .numeric
        case .double, .date: .double
        case .float: .real
        case .boolean: .boolean
        case .string, .uri, .objectID, .binary, .transformable: .bytea
        case .uuid: .uuid
        case .undefined, .composite: nil
        }
    }
}
