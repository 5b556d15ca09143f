extension SQLiteSchema {
    /// The tables every store has, written as Core Data writes them.
    static let systemTableStatements = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    ]

    /// `CREATE TABLE` and `CREATE INDEX` statements for the whole layout, in Core Data's
    /// spelling: entity tables, join tables, indexes, then R-tree indexes with their triggers.
    var createStatements: [String] {
        entityTables.map(Self.createStatement) + joinTables.map(Self.createStatement)
            + referenceTables.map(Self.createStatement) + indexes.map(\.createStatement)
            + rTreeIndexes.flatMap(\.createStatements)
    }

    /// `CREATE TABLE` for an entity table.
    static func createStatement(of table: EntityTable) -> String {
        let columns = table.columns.map { column in
            column.role == .primaryKey ? "Z_PK INTEGER PRIMARY KEY" : "\(column.name) \(column.type.rawValue)"
        }
        return "CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )"
    }

    /// `CREATE TABLE` for a join table.
    static func createStatement(of table: JoinTable) -> String {
        let columns = [table.sourceColumn, table.destinationColumn] + (table.orderColumn.map { [$0] } ?? [])
        let definitions = columns.map { "\($0) INTEGER" }.joined(separator: ", ")
        return
            "CREATE TABLE \(table.name) ( \(definitions), PRIMARY KEY (\(table.sourceColumn), \(table.destinationColumn)) )"
    }

    /// `CREATE TABLE` for a reference table: a member's URI appears once per owner.
    static func createStatement(of table: ReferenceTable) -> String {
        let order = table.orderColumn.map { ", \($0) INTEGER" } ?? ""
        return "CREATE TABLE \(table.name) ( \(table.ownerColumn) INTEGER, \(table.referenceColumn) VARCHAR\(order), "
            + "PRIMARY KEY (\(table.ownerColumn), \(table.referenceColumn)) )"
    }
}

extension SQLiteSchema.Index {
    /// `CREATE INDEX`, in Core Data's spelling.
    var createStatement: String {
        "CREATE \(isUnique ? "UNIQUE " : "")INDEX \(name) ON \(table) (\(columns.joined(separator: ", ")))"
            + (condition.map { " WHERE \($0)" } ?? "")
    }
}
