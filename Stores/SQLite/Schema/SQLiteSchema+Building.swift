import Strata

extension SQLiteSchema {
    /// The layout of the entities of `configuration` of `schema` (every entity when `nil`).
    /// Whole inheritance trees are laid out, even when the configuration names only part of one.
    init(schema: ModelSchema, entityNames: Set<String>) {
        let trees = Self.inheritanceTrees(of: schema, touching: entityNames)
        var numbers: [String: Int64] = [:]
        for name in trees.flatMap({ $0 }) { numbers[name] = Int64(numbers.count + 1) }
        var superentities: [String: String] = [:]
        for name in numbers.keys {
            if let parent = schema.entitiesByName[name]?.superentityNames.first { superentities[name] = parent }
        }
        let layout = Layout(schema: schema, numbers: numbers)
        let tables = trees.map(layout.entityTable)
        var tableOfEntity: [String: EntityTable] = [:]
        for table in tables { for entity in table.entities { tableOfEntity[entity] = table } }
        let joinTables = layout.joinTables(for: trees.flatMap { $0 })
        let referenceTables = layout.referenceTables(for: trees.flatMap { $0 })
        self.init(
            entityNumbers: numbers, superentities: superentities, entityTables: tables, tableOfEntity: tableOfEntity,
            joinTables: joinTables, referenceTables: referenceTables,
            indexes: layout.indexes(
                tables: tables, tableOfEntity: tableOfEntity, joinTables: joinTables, referenceTables: referenceTables))
        let fetchIndexes = Self.fetchIndexes(of: self, schema: schema)
        indexes += fetchIndexes.partial
        rTreeIndexes = fetchIndexes.rTrees
        skippedFetchIndexes = fetchIndexes.skipped
    }

    /// The inheritance trees holding any of `entityNames`, each listed root first and
    /// depth-first, siblings by name; the trees sorted by root name. This is Core Data's entity
    /// numbering (COREDATA-FORMATS §C.2).
    private static func inheritanceTrees(of schema: ModelSchema, touching entityNames: Set<String>) -> [[String]] {
        let roots = Set(entityNames.compactMap { schema.entitiesByName[$0]?.rootEntityName })
        func depthFirst(_ name: String) -> [String] {
            let children = schema.entitiesByName[name]?.subentityNames.sorted() ?? []
            return [name] + children.flatMap(depthFirst)
        }
        return roots.sorted().map(depthFirst)
    }
}

/// The rules that turn entities and properties into tables, columns and indexes.
private struct Layout {
    let schema: ModelSchema
    let numbers: [String: Int64]

    func entityTable(_ tree: [String]) -> SQLiteSchema.EntityTable {
        var columns: [SQLiteColumn] = []
        var taken: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
        func add(_ base: String, _ type: SQLiteColumn.DeclaredType, _ role: SQLiteColumn.Role) {
            let name = Self.unique(base, in: &taken)
            columns.append(SQLiteColumn(name: name, type: type, role: role))
        }
        for entityName in tree {
            guard let entity = schema.entitiesByName[entityName]?.description else { continue }
            // Each leaf element of a composite has a column named, as Core Data names it, after
            // the element alone: `address.city` is ZCITY (ZCITY1 when the table has a ZCITY).
            for attribute in entity.attributes.flatMap(\.leafAttributes) where !attribute.isTransient {
                let element = attribute.name.split(separator: ".").last.map(String.init) ?? attribute.name
                add(
                    "Z" + element.uppercased(), .init(attribute.type),
                    .attribute(entity: entityName, name: attribute.name))
            }
            for relationship in entity.relationships where !relationship.isTransient && !relationship.isToMany {
                let name = relationship.name.uppercased()
                guard leadsIn(relationship) else {
                    add("Z" + name, .varchar, .reference(entity: entityName, name: relationship.name))
                    continue
                }
                add("Z" + name, .integer, .toOne(entity: entityName, name: relationship.name))
                if let destination = schema.entitiesByName[relationship.destinationEntityName],
                    !destination.subentityNames.isEmpty
                {
                    let number = numbers[destination.rootEntityName] ?? 0
                    add("Z\(number)_" + name, .integer, .toOneEntity(entity: entityName, name: relationship.name))
                }
                if inverse(of: relationship, in: entityName)?.isOrdered == true {
                    add("Z_FOK_" + name, .integer, .order(entity: entityName, name: relationship.name))
                }
            }
        }
        let fixed = [
            SQLiteColumn(name: "Z_PK", type: .integer, role: .primaryKey),
            SQLiteColumn(name: "Z_ENT", type: .integer, role: .entity),
            SQLiteColumn(name: "Z_OPT", type: .integer, role: .version),
        ]
        let grouped = columns.enumerated().sorted { ($0.element.type, $0.offset) < ($1.element.type, $1.offset) }
        let treeNumbers = tree.compactMap { numbers[$0] }
        return SQLiteSchema.EntityTable(
            name: "Z" + tree[0].uppercased(), rootEntity: tree[0],
            entityNumbers: (treeNumbers.min() ?? 0)...(treeNumbers.max() ?? 0), entities: tree,
            columns: fixed + grouped.map(\.element))
    }

    /// One join table for each many-to-many pair, named after the side whose entity and
    /// relationship names sort first.
    func joinTables(for entityNames: [String]) -> [SQLiteSchema.JoinTable] {
        var tables: [SQLiteSchema.JoinTable] = []
        for entityName in entityNames {
            guard let entity = schema.entitiesByName[entityName]?.description else { continue }
            for relationship in entity.relationships
            where relationship.isToMany && !relationship.isTransient && leadsIn(relationship) {
                let inverse = inverse(of: relationship, in: entityName)
                guard inverse?.isToMany != false else { continue }
                let inverseEntity = relationship.destinationEntityName
                let inverseName = inverse?.name ?? relationship.name
                guard (entityName, relationship.name) <= (inverseEntity, inverseName) || inverse == nil else {
                    continue
                }
                let source = numbers[entityName] ?? 0
                let destination = numbers[inverseEntity] ?? 0
                var taken: Set<String> = []
                let sourceColumn = Self.unique("Z_\(source)" + inverseName.uppercased(), in: &taken)
                let destinationColumn = Self.unique("Z_\(destination)" + relationship.name.uppercased(), in: &taken)
                // `Z_FOK_3ASSETS` keeps the order of the objects in column `Z_3ASSETS`.
                let orderedColumn =
                    relationship.isOrdered ? destinationColumn : inverse?.isOrdered == true ? sourceColumn : nil
                let orderColumn = orderedColumn.map { "Z_FOK_" + $0.dropFirst(2) }
                tables.append(
                    SQLiteSchema.JoinTable(
                        name: "Z_\(source)" + relationship.name.uppercased(), entity: entityName,
                        relationship: relationship.name, sourceColumn: sourceColumn,
                        destinationColumn: destinationColumn, inverseEntity: inverseEntity,
                        inverseRelationship: inverseName, orderColumn: orderColumn))
            }
        }
        return tables
    }

    /// One reference table for each to-many relationship leading out of the layout, named as a
    /// join table after its entity's number and its name.
    func referenceTables(for entityNames: [String]) -> [SQLiteSchema.ReferenceTable] {
        entityNames.flatMap { entityName in
            (schema.entitiesByName[entityName]?.description.relationships ?? []).filter {
                $0.isToMany && !$0.isTransient && !leadsIn($0)
            }.map { relationship in
                SQLiteSchema.ReferenceTable(
                    name: "Z_\(numbers[entityName] ?? 0)" + relationship.name.uppercased(), entity: entityName,
                    relationship: relationship.name, isOrdered: relationship.isOrdered)
            }
        }
    }

    /// Whether `relationship`'s destination has a table in the layout; otherwise it leads out of
    /// the configuration, to objects another store keeps.
    private func leadsIn(_ relationship: RelationshipDescription) -> Bool {
        numbers[relationship.destinationEntityName] != nil
    }

    func indexes(
        tables: [SQLiteSchema.EntityTable], tableOfEntity: [String: SQLiteSchema.EntityTable],
        joinTables: [SQLiteSchema.JoinTable], referenceTables: [SQLiteSchema.ReferenceTable]
    ) -> [SQLiteSchema.Index] {
        var indexes: [SQLiteSchema.Index] = []
        for table in tables {
            if table.entities.count > 1 {
                indexes.append(
                    .init(name: "\(table.name)_Z_ENT_INDEX", table: table.name, columns: ["Z_ENT"], isUnique: false))
            }
            // Each to-one's key, and each attribute the model marks indexed (Core Data's older
            // form of a one-attribute fetch index), gets an index of its own.
            for column in table.columns {
                switch column.role {
                case .toOne, .reference: break
                case .attribute(let entity, let name)
                where schema.entitiesByName[entity]?.attributesByName[name]?.isIndexed == true:
                    break
                default: continue
                }
                indexes.append(
                    .init(
                        name: "\(table.name)_\(column.name)_INDEX", table: table.name, columns: [column.name],
                        isUnique: false))
            }
        }
        for (entityName, table) in tableOfEntity.sorted(by: { numbers[$0.key] ?? 0 < numbers[$1.key] ?? 0 }) {
            guard let entity = schema.entitiesByName[entityName]?.description else { continue }
            func column(_ property: String) -> String? {
                table.columns.first { column in
                    switch column.role {
                    case .attribute(_, let name), .toOne(_, let name): name == property
                    default: false
                    }
                }?.name
            }
            for constraint in entity.uniquenessConstraints {
                let columns = constraint.compactMap(column)
                guard columns.count == constraint.count else { continue }
                indexes.append(
                    .init(
                        name: "Z_\(entityName)_UNIQUE_" + constraint.joined(separator: "_"), table: table.name,
                        columns: columns.map { "\($0) COLLATE BINARY ASC" }, isUnique: true))
            }
            // Partial and R-tree fetch indexes are written from the finished layout
            // (SQLiteSchema+FetchIndexes.swift).
            for fetchIndex in entity.fetchIndexes
            where fetchIndex.partialIndexPredicate == nil && fetchIndex.elements.allSatisfy({ $0.kind == .binary }) {
                let columns = fetchIndex.elements.compactMap { element in
                    column(element.propertyName).map { "\($0) COLLATE BINARY \(element.isAscending ? "ASC" : "DESC")" }
                }
                guard columns.count == fetchIndex.elements.count else { continue }
                indexes.append(
                    .init(
                        name: "Z_\(entityName)_\(fetchIndex.name)", table: table.name, columns: columns, isUnique: false
                    ))
            }
        }
        for table in joinTables {
            indexes.append(
                .init(
                    name: "\(table.name)_\(table.destinationColumn)_INDEX", table: table.name,
                    columns: [table.destinationColumn, table.sourceColumn], isUnique: false))
        }
        for table in referenceTables {
            indexes.append(
                .init(
                    name: "\(table.name)_\(table.referenceColumn)_INDEX", table: table.name,
                    columns: [table.referenceColumn, table.ownerColumn], isUnique: false))
        }
        return indexes
    }

    private func inverse(of relationship: RelationshipDescription, in entityName: String) -> RelationshipDescription? {
        guard let inverseName = relationship.inverseName else { return nil }
        return schema.entitiesByName[relationship.destinationEntityName]?.relationshipsByName[inverseName]
    }

    /// `base`, or `base` with the first free number from 1 appended, recorded in `taken`.
    private static func unique(_ base: String, in taken: inout Set<String>) -> String {
        var name = base
        var suffix = 1
        while taken.contains(name) {
            name = base + String(suffix)
            suffix += 1
        }
        taken.insert(name)
        return name
    }
}
