import Strata

/// The statements that take an SQLite store's tables from one model version's layout to the
/// next one's where they are, as Core Data's lightweight migration does: each table whose
/// columns or rows change is renamed aside, created anew in the new layout, filled from the
/// old one with `INSERT … SELECT` and dropped; the other tables stay as they are. Primary
/// keys stay, so every object keeps its ID; entity numbers follow the new layout.
struct SQLiteSchemaChange {
    /// A table of the new layout and how its rows are made.
    struct Rebuild {
        let table: String
        /// `CREATE TABLE`, as for a new store.
        let create: String
        /// `INSERT … SELECT` from the old table renamed aside; `nil` for a table of new entities.
        let insert: String?
    }

    /// A non-optional property whose column may come out `NULL` for objects of one entity.
    struct RequiredColumn {
        let table: String
        let entityNumber: Int64
        let column: String
        let entity: String
        let property: String
    }

    /// An attribute whose values change type, by the SQL function `strata_migration_convert`.
    struct Conversion {
        let from: AttributeType
        let to: AttributeType
        let entity: String
        let attribute: String
    }

    let source: SQLiteSchema
    let destination: SQLiteSchema
    let mapping: InPlaceMapping
    let sourceModel: ModelSchema
    let destinationModel: ModelSchema
    /// Where this change's conversions start in the migration's list.
    let firstConversion: Int

    /// Old tables to rename aside before the new ones are made, and drop after.
    private(set) var tablesAside: [String] = []
    /// Old tables no new table is made from.
    private(set) var droppedTables: [String] = []
    private(set) var rebuilds: [Rebuild] = []
    private(set) var requiredColumns: [RequiredColumn] = []
    private(set) var conversions: [Conversion] = []

    /// Whether an entity whose objects are kept gets another number.
    var renumbersEntities: Bool {
        mapping.entitiesBySource.values.contains {
            source.entityNumbers[$0.source.name] != destination.entityNumbers[$0.destination.name]
        }
    }

    /// The name an old table has while its rows are copied.
    static func asideName(of table: String) -> String { "Z_MIGRATING_" + table }

    /// Works out the change.
    ///
    /// - Throws: `InPlaceMapping.Declined` when a table's rows cannot be made from one old
    ///   table by SQL alone.
    init(
        from source: SQLiteSchema, to destination: SQLiteSchema, mapping: InPlaceMapping, sourceModel: ModelSchema,
        destinationModel: ModelSchema, firstConversion: Int
    ) throws(InPlaceMapping.Declined) {
        self.source = source
        self.destination = destination
        self.mapping = mapping
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        self.firstConversion = firstConversion
        var used: [String: Int] = [:]
        for table in destination.entityTables { try plan(table, used: &used) }
        for table in destination.joinTables { try plan(table, used: &used) }
        for table in destination.referenceTables { try plan(table, used: &used) }
        if let shared = unchanged.first(where: { used[$0, default: 0] > 1 }) {
            throw InPlaceMapping.Declined(description: "table \(shared) would stay and also feed another table")
        }
        let oldTables =
            source.entityTables.map(\.name) + source.joinTables.map(\.name) + source.referenceTables.map(\.name)
        droppedTables = oldTables.filter { used[$0] == nil }
        tablesAside = oldTables.filter { used[$0] != nil && !unchanged.contains($0) }
    }

    /// Old tables kept as they are.
    private var unchanged: Set<String> = []

    // MARK: Entity tables

    private mutating func plan(_ table: SQLiteSchema.EntityTable, used: inout [String: Int]) throws(InPlaceMapping
        .Declined)
    {
        let create = SQLiteSchema.createStatement(of: table)
        let kept = table.entities.compactMap { mapping.entitiesByDestination[$0] }
        let sourceTables = Set(kept.compactMap { source.tableOfEntity[$0.source.name]?.name })
        guard let old = sourceTables.first.flatMap({ name in source.entityTables.first { $0.name == name } }) else {
            rebuilds.append(Rebuild(table: table.name, create: create, insert: nil))
            return
        }
        guard sourceTables.count == 1 else {
            throw InPlaceMapping.Declined(
                description: "table \(table.name) would take rows from \(sourceTables.sorted())")
        }
        used[old.name, default: 0] += 1
        var builder = RowBuilder(change: self, table: table, old: old, kept: kept)
        var expressions: [String] = []
        for column in table.columns { expressions.append(try builder.expression(for: column)) }
        conversions += builder.conversions
        requiredColumns += builder.requiredColumns
        let keptNumbers = kept.filter { !$0.source.description.isAbstract }.compactMap {
            source.entityNumbers[$0.source.name]
        }
        let rowsOfOld = old.entities.filter { sourceModel.entitiesByName[$0]?.description.isAbstract == false }
        let filter =
            Set(keptNumbers) == Set(rowsOfOld.compactMap { source.entityNumbers[$0] })
            ? "" : " WHERE Z_ENT IN (\(keptNumbers.map(String.init).joined(separator: ", ")))"
        if table.name == old.name && table.columns.map(\.name) == expressions && table.columns == old.columns
            && filter.isEmpty
        {
            unchanged.insert(old.name)
            return
        }
        let insert =
            "INSERT INTO \(table.name) (\(table.columns.map(\.name).joined(separator: ", "))) SELECT "
            + expressions.joined(separator: ", ") + " FROM \(Self.asideName(of: old.name))" + filter
        rebuilds.append(Rebuild(table: table.name, create: create, insert: insert))
    }

    // MARK: Join tables

    private mutating func plan(_ table: SQLiteSchema.JoinTable, used: inout [String: Int]) throws(InPlaceMapping
        .Declined)
    {
        let create = SQLiteSchema.createStatement(of: table)
        guard
            let (owners, keys, first, key) = try owners(
                filling: table.name, kind: "join table", entity: table.entity, relationship: table.relationship,
                create: create)
        else { return }
        let oldTables = Set(
            owners.map { owner -> String? in
                guard let relationship = owner.source.relationshipsByName[key],
                    case .joinTable(let name, _, _, _, _)? = source.toManyStorage(
                        of: relationship, in: owner.source, model: sourceModel)
                else { return nil }
                return name
            })
        guard keys.count == 1, oldTables.count == 1, let relationship = first.source.relationshipsByName[key],
            case .joinTable(let oldName, let ownColumn, let memberColumn, _, _)? = source.toManyStorage(
                of: relationship, in: first.source, model: sourceModel),
            let old = source.joinTables.first(where: { $0.name == oldName })
        else { throw declined(table, "does not come from one join table") }
        let newRelationship = destinationModel.entitiesByName[table.entity]?.relationshipsByName[table.relationship]
        let newInverse = destinationModel.entitiesByName[table.inverseEntity]?.relationshipsByName[
            table.inverseRelationship]
        if newRelationship?.isOrdered == true && newInverse?.isOrdered == true
            && table.inverseRelationship
                != table.relationship
        {
            throw declined(table, "keeps two orders")
        }
        if relationship.isOrdered,
            let inverse = relationship.inverseName.flatMap({
                sourceModel.entitiesByName[relationship.destinationEntityName]?.relationshipsByName[$0]
            }), inverse.isOrdered, inverse.isToMany
        {
            throw declined(table, "comes from a join table that keeps two orders")
        }
        try checkEveryObjectKept(of: relationship, in: first.source, for: table)
        var columns = [table.sourceColumn, table.destinationColumn]
        var values = [ownColumn, memberColumn]
        if let orderColumn = table.orderColumn {
            columns.append(orderColumn)
            values.append(try oldOrderColumn(of: relationship, in: first.source, for: table))
        }
        used[old.name, default: 0] += 1
        let oldColumns = [old.sourceColumn, old.destinationColumn] + (old.orderColumn.map { [$0] } ?? [])
        if table.name == old.name && columns == values && columns == oldColumns {
            unchanged.insert(old.name)
            return
        }
        let insert =
            "INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) "
            + "FROM \(Self.asideName(of: old.name))"
        rebuilds.append(Rebuild(table: table.name, create: create, insert: insert))
    }

    /// The mapped entities whose new entity holds `relationship` of `entity`, which the table
    /// `table` (a `kind`, for messages) keeps, with the old relationships they fill it from and
    /// the first of them; `nil` when none fills it, after planning the table empty.
    private mutating func owners(
        filling table: String, kind: String, entity: String, relationship: String, create: String
    ) throws(InPlaceMapping.Declined) -> (
        entities: [InPlaceMapping.Entity], keys: Set<String?>, first: InPlaceMapping.Entity, key: String
    )? {
        let owners = mapping.entitiesByDestination.values.filter {
            $0.destination.isKind(of: entity) && $0.destination.relationshipsByName[relationship] != nil
        }
        let keys = Set(owners.map { $0.relationships[relationship] })
        guard let first = owners.first, let key = first.relationships[relationship] else {
            guard keys.count <= 1 else {
                throw InPlaceMapping.Declined(description: "\(kind) \(table) is filled for some of its entities only")
            }
            rebuilds.append(Rebuild(table: table, create: create, insert: nil))
            return nil
        }
        return (owners, keys, first, key)
    }

    // MARK: Reference tables

    /// A reference table's rows: an owner keeps its primary key, and the other store's objects
    /// their IDs, so the old table's rows are copied as they are, or its order column added.
    private mutating func plan(_ table: SQLiteSchema.ReferenceTable, used: inout [String: Int]) throws(InPlaceMapping
        .Declined)
    {
        let create = SQLiteSchema.createStatement(of: table)
        guard
            let (_, keys, first, key) = try owners(
                filling: table.name, kind: "reference table", entity: table.entity, relationship: table.relationship,
                create: create)
        else { return }
        guard keys.count == 1, let relationship = first.source.relationshipsByName[key],
            case .references(let old)? = source.toManyStorage(of: relationship, in: first.source, model: sourceModel)
        else {
            throw InPlaceMapping.Declined(
                description: "reference table \(table.name) does not come from one to-many leading to another store")
        }
        used[old.name, default: 0] += 1
        if table == old {
            unchanged.insert(old.name)
            return
        }
        var columns = [table.ownerColumn, table.referenceColumn]
        var values = [old.ownerColumn, old.referenceColumn]
        if let orderColumn = table.orderColumn {
            columns.append(orderColumn)
            values.append(old.orderColumn ?? "rowid")
        }
        let insert =
            "INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) "
            + "FROM \(Self.asideName(of: old.name))"
        rebuilds.append(Rebuild(table: table.name, create: create, insert: insert))
    }

    /// Declines unless every object either side of the old relationship may hold is kept as an
    /// object of the new relationship's entities: the rows of a join table do not say whose
    /// they are.
    private func checkEveryObjectKept(
        of relationship: RelationshipDescription, in entity: EntitySchema, for table: SQLiteSchema.JoinTable
    ) throws(InPlaceMapping.Declined) {
        let owner = source.declaringEntity(of: relationship.name, in: entity, model: sourceModel)
        let sides = [
            (owner, table.entity), (relationship.destinationEntityName, table.inverseEntity),
        ]
        for (oldEntity, newEntity) in sides {
            guard let root = sourceModel.entitiesByName[oldEntity] else { continue }
            for name in [root.name] + root.descendantNames
            where sourceModel.entitiesByName[name]?.description.isAbstract == false {
                guard mapping.entitiesBySource[name]?.destination.isKind(of: newEntity) == true else {
                    throw declined(table, "would keep rows of '\(name)' objects that are not kept")
                }
            }
        }
    }

    /// The old join table's column holding the order the new table keeps.
    private func oldOrderColumn(
        of relationship: RelationshipDescription, in entity: EntitySchema, for table: SQLiteSchema.JoinTable
    ) throws(InPlaceMapping.Declined) -> String {
        let ordersMembers =
            destinationModel.entitiesByName[table.entity]?.relationshipsByName[table.relationship]?
            .isOrdered == true
        var storage = source.toManyStorage(of: relationship, in: entity, model: sourceModel)
        if !ordersMembers, let inverseName = relationship.inverseName,
            let target = sourceModel.entitiesByName[relationship.destinationEntityName],
            let inverse = target.relationshipsByName[inverseName]
        {
            storage = source.toManyStorage(of: inverse, in: target, model: sourceModel)
        }
        guard case .joinTable(_, _, _, let orderColumn?, _)? = storage else {
            throw declined(table, "keeps an order its source does not")
        }
        return orderColumn
    }

    private func declined(_ table: SQLiteSchema.JoinTable, _ reason: String) -> InPlaceMapping.Declined {
        InPlaceMapping.Declined(description: "join table \(table.name) \(reason)")
    }
}
