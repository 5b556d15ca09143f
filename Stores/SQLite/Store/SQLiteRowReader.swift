import Strata

/// Where the stored properties of one entity sit in the columns of its table, worked out once
/// when the store opens, so that reading a row costs no lookups by name. A class, so that
/// handing it to each row read retains one reference rather than each of its tables.
final class SQLiteRowReader: Sendable {
    /// An attribute, the index of its column and its slot in the entity's values.
    struct AttributeColumn: Sendable {
        let name: String
        let type: AttributeType
        let index: Int
        let slot: Int
        /// Whether the file's triggers keep the value (a derived attribute of a store with Core
        /// Data's triggers): updates leave it to them.
        let isDerived: Bool
        /// Whether the column holds external binary data (see ``SQLiteExternalData``).
        let isExternal: Bool
    }

    /// A to-one relationship, the index of its destination's key column and, for destinations
    /// with sub-entities, of its entity-number column.
    struct ToOneColumn: Sendable {
        let name: String
        /// The relationship's slot in the entity's values.
        let slot: Int
        let destinationEntityName: String
        /// The destination entity's number in `Z_ENT`.
        let destinationEntityNumber: Int64?
        /// The numbers the entity-number column may hold: the destination's and its subentities'.
        let destinationEntityNumbers: Set<Int64>
        let index: Int?
        let entityIndex: Int?
        /// Whether the column at `index` holds the URI of another store's object rather than a key.
        let isReference: Bool
    }

    /// The entity whose rows this reads.
    let entity: EntitySchema
    /// The name of the table the indexes refer to.
    let tableName: String
    let attributes: [AttributeColumn]
    /// The attributes whose columns hold external binary data.
    let externalAttributes: [AttributeColumn]
    let toOnes: [ToOneColumn]
    /// The index of each attribute's column, by attribute name.
    let attributeIndexes: [String: Int]
    /// Each to-one relationship's columns, by relationship name.
    let toOnesByName: [String: ToOneColumn]
    /// The statement reading one row of the table by primary key, every column selected.
    let selectByKey: String
    /// The statement inserting a row of the entity: `Z_PK`, `Z_ENT`, `Z_OPT`, then the columns of
    /// ``attributes`` and of ``toOnes`` (key, then entity number where there is one), in order.
    let insertStatement: String
    /// The statement updating every column ``insertStatement`` sets but `Z_PK`, `Z_ENT` and the
    /// derived attributes the file's triggers keep, in the same order, raising `Z_OPT`
    /// by one; the primary key is bound last.
    let updateStatement: String

    /// The reader of the rows of `entity` in `table`.
    init(entity: EntitySchema, table: SQLiteSchema.EntityTable, layout: SQLiteSchema, model: ModelSchema) {
        self.entity = entity
        tableName = table.name
        var attributes: [AttributeColumn] = []
        for attribute in entity.attributes where !attribute.isTransient {
            let owner = layout.declaringEntity(of: attribute.name, in: entity, model: model)
            guard let index = layout.columnIndex(.attribute(entity: owner, name: attribute.name), in: table),
                let slot = entity.slot(of: attribute.name)
            else { continue }
            attributes.append(
                AttributeColumn(
                    name: attribute.name, type: attribute.type, index: index, slot: slot,
                    isDerived: layout.triggerKeptDerivations.contains("\(owner).\(attribute.name)"),
                    isExternal: attribute.storesExternally))
        }
        self.attributes = attributes
        externalAttributes = attributes.filter(\.isExternal)
        attributeIndexes = Dictionary(attributes.map { ($0.name, $0.index) }, uniquingKeysWith: { first, _ in first })
        selectByKey =
            "SELECT \(table.columns.map { "t0.\($0.name)" }.joined(separator: ", ")) FROM \(table.name) t0 "
            + "WHERE t0.Z_PK = ?"
        let toOnes = entity.relationships.filter { !$0.isTransient && !$0.isToMany }.compactMap { relationship in
            let owner = layout.declaringEntity(of: relationship.name, in: entity, model: model)
            let column = layout.toOneColumnIndex(entity: owner, name: relationship.name, in: table)
            return entity.slot(of: relationship.name).map { slot in
                ToOneColumn(
                    name: relationship.name, slot: slot, destinationEntityName: relationship.destinationEntityName,
                    destinationEntityNumber: layout.entityNumbers[relationship.destinationEntityName],
                    destinationEntityNumbers: Set(
                        ([relationship.destinationEntityName]
                            + (model.entitiesByName[relationship.destinationEntityName]?.descendantNames ?? []))
                            .compactMap { layout.entityNumbers[$0] }),
                    index: column?.index,
                    entityIndex: layout.columnIndex(.toOneEntity(entity: owner, name: relationship.name), in: table),
                    isReference: column?.isReference ?? false)
            }
        }
        self.toOnes = toOnes
        toOnesByName = Dictionary(toOnes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let insertedIndexes = attributes.map(\.index) + toOnes.flatMap { [$0.index, $0.entityIndex].compactMap { $0 } }
        let insertedColumns = ["Z_PK", "Z_ENT", "Z_OPT"] + insertedIndexes.map { table.columns[$0].name }
        insertStatement =
            "INSERT INTO \(table.name) (\(insertedColumns.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: insertedColumns.count).joined(separator: ", ") + ")"
        let updatedIndexes =
            attributes.filter { !$0.isDerived }.map(\.index)
            + toOnes.flatMap { [$0.index, $0.entityIndex].compactMap { $0 } }
        let assignments = ["Z_OPT = Z_OPT + 1"] + updatedIndexes.map { "\(table.columns[$0].name) = ?" }
        updateStatement = "UPDATE \(table.name) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?"
    }

    /// The reader of every entity of `entityNames` that has a table in `layout`, by entity name.
    static func readers(
        for entityNames: Set<String>, layout: SQLiteSchema, model: ModelSchema
    ) -> [String: SQLiteRowReader] {
        var readers: [String: SQLiteRowReader] = [:]
        for name in entityNames {
            guard let entity = model.entitiesByName[name], let table = layout.tableOfEntity[name] else { continue }
            readers[name] = SQLiteRowReader(entity: entity, table: table, layout: layout, model: model)
        }
        return readers
    }
}
