import Strata

/// Where the entities of one model configuration live in Core Data's SQLite layout
/// (COREDATA-FORMATS §C): entity numbers, one table per inheritance tree, join tables for
/// many-to-many relationships, and indexes.
struct SQLiteSchema: Sendable {
    /// The table of one inheritance tree, holding the rows of every entity in it.
    struct EntityTable: Sendable, Hashable {
        /// `Z` and the root entity's name in upper case.
        let name: String
        /// The root entity of the tree.
        let rootEntity: String
        /// The entity numbers of the tree, which Core Data numbers one after another: the only
        /// ones its rows' `Z_ENT` may hold.
        let entityNumbers: ClosedRange<Int64>
        /// The entities whose rows the table holds, root first.
        let entities: [String]
        /// `Z_PK`, `Z_ENT`, `Z_OPT`, then the properties' columns grouped by declared type.
        let columns: [SQLiteColumn]
    }

    /// The table of one many-to-many relationship: a row per pair of related objects.
    struct JoinTable: Sendable, Hashable {
        /// `Z_`, the entity number of the relationship's source and its name in upper case.
        let name: String
        /// The relationship the table is named after, and its entity.
        let entity: String, relationship: String
        /// The column holding the primary keys of `entity`'s objects.
        let sourceColumn: String
        /// The column holding the primary keys of the destination's objects.
        let destinationColumn: String
        /// The inverse relationship and its entity.
        let inverseEntity: String, inverseRelationship: String
        /// The column keeping the order of an ordered relationship (`Z_FOK_…`), if any.
        let orderColumn: String?
    }

    /// The table of one to-many relationship leading out of the configuration, to objects of
    /// another store: a row per member, pairing the owner's primary key with the member's URI.
    struct ReferenceTable: Sendable, Hashable {
        /// `Z_`, the entity number of the relationship's entity and its name in upper case.
        let name: String
        /// The relationship the table keeps, and the entity declaring it.
        let entity: String, relationship: String
        /// Whether the table keeps the members' order, in ``orderColumn``.
        let isOrdered: Bool

        /// The column holding the owners' primary keys.
        let ownerColumn = "ZOWNER"
        /// The column holding the members' URIs (``ObjectID/uriString``).
        let referenceColumn = "ZREFERENCE"
        /// The column keeping the members' order, when ``isOrdered``.
        var orderColumn: String? { isOrdered ? "Z_FOK_REFERENCE" : nil }
    }

    /// An index over columns of one table.
    struct Index: Sendable, Hashable {
        let name: String
        let table: String
        /// Each column with its collation and direction, as written in `CREATE INDEX`.
        let columns: [String]
        let isUnique: Bool
        /// The `WHERE` condition of a partial index.
        var condition: String? = nil
    }

    /// The entity number (`Z_ENT`) of each entity.
    let entityNumbers: [String: Int64]
    /// The superentity of each entity that has one.
    let superentities: [String: String]
    /// The entity tables, by root entity, in entity-number order.
    let entityTables: [EntityTable]
    /// The table of each entity.
    let tableOfEntity: [String: EntityTable]
    /// The join tables.
    let joinTables: [JoinTable]
    /// The tables of the to-many relationships leading out of the configuration.
    var referenceTables: [ReferenceTable] = []
    /// Every index Core Data would create, partial ones included.
    var indexes: [Index]
    /// The R-tree fetch indexes.
    var rTreeIndexes: [RTreeIndex] = []
    /// The fetch indexes the layout does not build, each with the reason.
    var skippedFetchIndexes: [String] = []
    /// The derived attributes the file's triggers keep, as `Entity.attribute` of the entity
    /// declaring them: the store leaves their columns to the triggers when it updates a row.
    var triggerKeptDerivations: Set<String> = []

    /// Notes which derived attributes the file's triggers `names` keep: Core Data names each
    /// `Z_DA_<table>_<Entity>_<attribute>_<role>`.
    mutating func noteDerivationTriggers(_ names: [String], model: ModelSchema) {
        triggerKeptDerivations = []
        for entity in model.entities {
            for attribute in entity.description.attributes where attribute.derivationExpression != nil {
                let infix = "_\(entity.name)_\(attribute.name)_"
                if names.contains(where: { $0.contains(infix) }) {
                    triggerKeptDerivations.insert("\(entity.name).\(attribute.name)")
                }
            }
        }
    }
}
