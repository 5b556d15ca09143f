import Strata

/// What takes a PostgreSQL store's tables from one model version's layout to the next one's
/// where they are, by `ALTER TABLE`: tables renamed, columns dropped, renamed and added, the
/// rows of entities no longer kept deleted, entity numbers rewritten, and indexes remade for
/// the tables that change. Rows keep their primary keys, so every object keeps its ID, and a
/// table whose columns only come and go is not rewritten: PostgreSQL adds a column with a
/// constant default without touching the rows.
///
/// Only changes made by renaming and constants are planned; anything that would need values
/// computed row by row (a type conversion, values moving between tables, a to-one whose
/// objects are only partly kept) is `InPlaceMapping.Declined`, and the migration copies the
/// store instead.
struct PostgresSchemaChange {
    /// One step of the change, run in order in the migration's transaction.
    enum Operation: Equatable {
        /// A statement.
        case sql(String)
        /// Drops every index and unique constraint of the table other than its primary key,
        /// found in the catalogue when the step runs.
        case dropIndexes(table: String)
        /// Names the primary key of a renamed table after it, as PostgreSQL names a new table's.
        case renamePrimaryKey(table: String)
        /// Makes the table's primary key the columns `columns`, in that order.
        case replacePrimaryKey(table: String, columns: [String])
    }

    /// A non-optional property whose column may come out `NULL` for objects of one entity.
    struct RequiredColumn: Equatable {
        let table: String
        let entityNumber: Int16
        let column: String
        let entity: String
        let property: String
    }

    let source: PostgresLayout
    let destination: PostgresLayout
    let mapping: InPlaceMapping
    let sourceModel: ModelSchema
    let destinationModel: ModelSchema

    private(set) var operations: [Operation] = []
    /// The properties whose every object the migration checks has a value, once the change is made.
    var requiredColumns: [RequiredColumn] = []

    /// Works out the change.
    ///
    /// - Throws: `InPlaceMapping.Declined` when a table's rows cannot be kept where they are.
    init(
        from source: PostgresLayout, to destination: PostgresLayout, mapping: InPlaceMapping,
        sourceModel: ModelSchema, destinationModel: ModelSchema
    ) throws(InPlaceMapping.Declined) {
        self.source = source
        self.destination = destination
        self.mapping = mapping
        self.sourceModel = sourceModel
        self.destinationModel = destinationModel
        var plans: [TablePlan] = []
        for table in destination.entityTables { plans.append(try plan(table, index: plans.count)) }
        for table in destination.joinTables { plans.append(try plan(table, index: plans.count)) }
        for table in destination.referenceTables { plans.append(try plan(table, index: plans.count)) }
        let oldTables = Set(source.tableNames).subtracting([PostgresLayout.metadataTable])
        let used = plans.compactMap(\.oldName)
        if let shared = Set(used.filter { name in used.filter { $0 == name }.count > 1 }).first {
            throw InPlaceMapping.Declined(description: "table \(shared) would feed more than one table")
        }
        build(plans, dropping: oldTables.subtracting(used).sorted())
    }

    /// What becomes of one table of the new layout.
    struct TablePlan {
        /// The table's name in the new layout.
        let name: String
        /// The old table it is made from; `nil` for a new, empty table.
        let oldName: String?
        /// The name the table has while it is altered: its old name, or a name aside when it
        /// takes another, so that no rename meets a name another table still has.
        let workingName: String
        /// `CREATE TABLE`, as a new store makes it.
        let create: String
        /// What brings the old table's columns and rows to the new layout.
        var alterations: [Operation] = []
        /// Whether the table's columns or rows change, so that its indexes are remade.
        var changes: Bool { oldName != name || !alterations.isEmpty }

        init(name: String, oldName: String?, index: Int, create: String) {
            self.name = name
            self.oldName = oldName
            self.workingName = oldName.map { $0 == name ? $0 : "_strata_migrating_\(index)" } ?? name
            self.create = create
        }
    }

    /// Orders the plans' statements: kept tables whose name changes go aside, tables no longer
    /// used are dropped, kept tables are altered and take their names, new tables are made,
    /// and the indexes of every table that is new or changed are remade once the rows are in
    /// place.
    private mutating func build(_ plans: [TablePlan], dropping dropped: [String]) {
        let oldIndexes = Self.indexesByTable(source.indexDefinitions(model: sourceModel))
        let newIndexes = Self.indexesByTable(destination.indexDefinitions(model: destinationModel))
        let remade = Set(
            plans.filter { $0.oldName == nil || $0.changes || oldIndexes[$0.name] != newIndexes[$0.name] }.map(\.name))
        for plan in plans {
            guard let old = plan.oldName, old != plan.name else { continue }
            operations.append(
                .sql("ALTER TABLE \(source.qualified(old)) RENAME TO \(PostgresIdentifier.quoted(plan.workingName))"))
            // Its key's index goes aside too, so that a table renamed to this one's name can
            // name its own key's index after it.
            operations.append(.renamePrimaryKey(table: plan.workingName))
        }
        for table in dropped { operations.append(.sql("DROP TABLE \(source.qualified(table))")) }
        // Before the rows change: a deferred unique constraint the new model drops must not
        // queue checks of rows the change makes alike.
        for plan in plans where plan.oldName != nil && remade.contains(plan.name) {
            operations.append(.dropIndexes(table: plan.workingName))
        }
        for plan in plans where plan.oldName != nil {
            operations += plan.alterations
            guard plan.workingName != plan.name else { continue }
            operations.append(
                .sql(
                    "ALTER TABLE \(source.qualified(plan.workingName)) RENAME TO \(PostgresIdentifier.quoted(plan.name))"
                ))
            operations.append(.renamePrimaryKey(table: plan.name))
        }
        for plan in plans where plan.oldName == nil { operations.append(.sql(plan.create)) }
        for definition in destination.indexDefinitions(model: destinationModel) where remade.contains(definition.table)
        {
            operations.append(.sql(definition.statement))
        }
        operations += destination.storageDefinitions(model: destinationModel, resettingOthers: true).map(Operation.sql)
    }

    private static func indexesByTable(_ definitions: [PostgresLayout.IndexDefinition]) -> [String: [String]] {
        Dictionary(grouping: definitions, by: \.table).mapValues { $0.map(\.statement) }
    }
}
