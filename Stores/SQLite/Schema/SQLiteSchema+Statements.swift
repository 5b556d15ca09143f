extension SQLiteSchema {
    /// The tables every store has, written as Core Data writes them.
    static let systemTableStatements = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    ]

    /// `CREATE TABLE` and `CREATE INDEX` statements for the whole layout, in Core Data's
    /// spelling: entity tables, join tables, then indexes.
    var createStatements: [String] {
        let entityTables = entityTables.map { table in
            let columns = table.columns.map { column in
                column.role == .primaryKey ? "Z_PK INTEGER PRIMARY KEY" : "\(column.name) \(column.type.rawValue)"
            }
            return "CREATE TABLE \(table.name) ( \(columns.joined(separator: ", ")) )"
        }
        let joinTables = joinTables.map { table in
            let columns = [table.sourceColumn, table.destinationColumn] + (table.orderColumn.map { [$0] } ?? [])
            let definitions = columns.map { "\($0) INTEGER" }.joined(separator: ", ")
            return
                "CREATE TABLE \(table.name) ( \(definitions), PRIMARY KEY (\(table.sourceColumn), \(table.destinationColumn)) )"
        }
        let indexes = indexes.map { index in
            "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(index.name) ON \(index.table) (\(index.columns.joined(separator: ", ")))"
        }
        return entityTables + joinTables + indexes
    }
}
