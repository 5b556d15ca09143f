import Strata

/// Where the entities of one model configuration live in a PostgreSQL schema (docs/POSTGRES.md,
/// "Schema"): one table per inheritance tree, with a primary key, an entity number and an
/// optimistic-lock version; a column per stored attribute and to-one relationship; a join table
/// per many-to-many relationship (and per to-many without an inverse); order columns for
/// ordered to-many relationships. Entity numbers follow Core Data's: trees by root name, each
/// root first and depth-first, siblings by name.
struct PostgresLayout: Sendable {
    /// The SQL types of columns.
    enum ColumnType: String, Sendable {
        case smallint, integer, bigint, numeric, real, boolean, bytea, uuid, text
        case double = "double precision"
    }

    /// What a column holds.
    enum Role: Sendable, Hashable {
        case primaryKey, entity, version
        case attribute(entity: String, name: String)
        /// The primary key of a to-one relationship's destination.
        case toOne(entity: String, name: String)
        /// The entity number of a to-one relationship's destination, when it has sub-entities.
        case toOneEntity(entity: String, name: String)
        /// The position of the object in the ordered to-many relationship that is the inverse
        /// of its to-one relationship `name`.
        case order(entity: String, name: String)
        /// The URI of the destination of to-one `name` of `entity`, an object of another store:
        /// the relationship leads out of the configuration (docs/CROSS-STORE-RELATIONSHIPS.md).
        case reference(entity: String, name: String)

        /// The name of the property whose value the column holds; `nil` for the columns of
        /// the row itself (key, entity, version) and of a position.
        var propertyName: String? {
            switch self {
            case .attribute(_, let name), .toOne(_, let name), .toOneEntity(_, let name), .reference(_, let name): name
            case .primaryKey, .entity, .version, .order: nil
            }
        }
    }

    struct Column: Sendable, Hashable {
        let name: String
        let type: ColumnType
        let role: Role
        var quoted: String { PostgresIdentifier.quoted(name) }
    }

    /// The table of one inheritance tree.
    struct EntityTable: Sendable, Hashable {
        /// The root entity's name.
        let name: String
        let rootEntity: String
        /// The entities whose rows the table holds, root first.
        let entities: [String]
        /// `_pk`, `_ent`, `_opt`, then the properties' columns.
        let columns: [Column]

        /// The column playing `role`.
        func column(_ role: Role) -> Column? { columns.first { $0.role == role } }
    }

    /// The table of one many-to-many relationship (or to-many without an inverse): a row per
    /// pair, `source` in the relationship's entity, `destination` in its destination.
    struct JoinTable: Sendable, Hashable {
        let name: String
        let entity: String, relationship: String
        let destinationEntity: String
        let inverseRelationship: String?
        /// Whether the table keeps the position of each destination in the source's ordered
        /// relationship (`source_order`), and of each source in the inverse's (`destination_order`).
        let sourceOrdered: Bool, destinationOrdered: Bool
    }

    /// The table of one to-many relationship leading out of the configuration, to objects of
    /// another store: a row per member, pairing the owner's key (`owner`) with the member's URI
    /// (`reference`, ``ObjectID/uriString``), and its position (`position`) when ordered.
    struct ReferenceTable: Sendable, Hashable {
        let name: String
        /// The relationship the table keeps, and the entity declaring it.
        let entity: String, relationship: String
        let isOrdered: Bool
    }

    /// The object of another store whose URI `value` holds, read from `place` of `storeName`.
    ///
    /// - Throws: `StoreError/Code/corrupt` when `value` is not an object's URI.
    static func referencedObjectID(_ value: PostgresValue?, in place: String, of storeName: String) throws
        -> ObjectID
    {
        if case .text(let uri)? = value, let objectID = ObjectID(uriString: uri), !objectID.isTemporary {
            return objectID
        }
        let shown =
            switch value {
            case .text(let text)?: "'\(text)'"
            case let other?: "\(other)"
            case nil: "nothing"
            }
        throw StoreError(
            code: .corrupt, message: "\(storeName) holds \(shown) in \(place), which is not an object's URI.")
    }

    /// How the members of one to-many relationship are kept.
    enum ToManyStorage: Sendable {
        /// In the members' rows: the to-one column of the inverse, its entity-number column
        /// when the owner's entity has sub-entities, and its position column when the to-many
        /// is ordered.
        case foreignKey(table: EntityTable, column: Column, entityColumn: Column?, orderColumn: Column?)
        /// In a join table, with the owner in `ownColumn` and the member in `memberColumn`.
        case joinTable(JoinTable, ownColumn: String, memberColumn: String, orderColumn: String?)
        /// In a reference table, for a relationship leading to another store's objects.
        case references(ReferenceTable)
    }

    /// The PostgreSQL schema holding the tables.
    let schemaName: String
    let entityNumbers: [String: Int16]
    let entityTables: [EntityTable]
    let tableOfEntity: [String: EntityTable]
    let joinTables: [JoinTable]
    /// The tables of the to-many relationships leading out of the configuration.
    let referenceTables: [ReferenceTable]

    /// `table` in the store's schema, quoted.
    func qualified(_ table: String) -> String { PostgresIdentifier.qualified(schemaName, table) }

    /// The store's own tables, beside the entities' ones.
    static let metadataTable = "_strata_metadata"
    static let keySequence = "_strata_keys"

    /// The entity of `number`, in the table's tree.
    func entityName(number: Int16, in table: EntityTable) -> String? {
        table.entities.first { entityNumbers[$0] == number }
    }

    /// How `relationship`, a to-many of `entity`, keeps its members; `nil` for a transient one.
    func toManyStorage(of relationship: RelationshipDescription, in entity: EntitySchema, model: ModelSchema)
        -> ToManyStorage?
    {
        guard relationship.isToMany, !relationship.isTransient else { return nil }
        let declaring = declaringEntity(of: relationship.name, from: entity.name, model: model)
        if let table = referenceTables.first(where: { $0.entity == declaring && $0.relationship == relationship.name })
        {
            return .references(table)
        }
        let inverse = relationship.inverseName.flatMap {
            model.entitiesByName[relationship.destinationEntityName]?.relationshipsByName[$0]
        }
        if let inverse, !inverse.isToMany {
            let owner = declaringEntity(of: inverse.name, from: relationship.destinationEntityName, model: model)
            guard let table = tableOfEntity[relationship.destinationEntityName],
                let column = table.column(.toOne(entity: owner, name: inverse.name))
            else { return nil }
            let order = table.column(.order(entity: owner, name: inverse.name))
            return .foreignKey(
                table: table, column: column,
                entityColumn: table.column(.toOneEntity(entity: owner, name: inverse.name)),
                orderColumn: relationship.isOrdered ? order : nil)
        }
        if let table = joinTables.first(where: { $0.entity == declaring && $0.relationship == relationship.name }) {
            return .joinTable(
                table, ownColumn: "source", memberColumn: "destination",
                orderColumn: table.sourceOrdered ? "source_order" : nil)
        }
        if let inverse {
            let inverseOwner = declaringEntity(of: inverse.name, from: relationship.destinationEntityName, model: model)
            if let table = joinTables.first(where: { $0.entity == inverseOwner && $0.relationship == inverse.name }) {
                return .joinTable(
                    table, ownColumn: "destination", memberColumn: "source",
                    orderColumn: table.destinationOrdered ? "destination_order" : nil)
            }
        }
        return nil
    }

    /// The entity that declares property `name`: `entityName` or the furthest of its
    /// superentities that has it.
    func declaringEntity(of name: String, from entityName: String, model: ModelSchema) -> String {
        guard let entity = model.entitiesByName[entityName] else { return entityName }
        var declaring = entityName
        for parent in entity.superentityNames {
            guard let schema = model.entitiesByName[parent],
                schema.attributesByName[name] != nil || schema.relationshipsByName[name] != nil
            else { break }
            declaring = parent
        }
        return declaring
    }
}
