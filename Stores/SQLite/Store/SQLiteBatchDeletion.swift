import Strata

/// One batch deletion carried out in SQL, inside the store's write transaction, with the
/// delete rules a context applies (``StoreBatchDelete``).
///
/// The rows to delete gather in the temporary table `Z_BATCHDELETE`, each with the round of
/// the cascade that reached it (0 for the rows the request names). A table whose every row goes
/// is *whole*: its rows are not copied, its relationships into itself need no work, and it is
/// emptied with one `DELETE` (SQLite's truncation). The objects the nullify rules change gather
/// in `Z_BATCHNULLIFIED`, once per relationship emptied; their versions grow by one.
struct SQLiteBatchDeletion {
    private let store: SQLiteStore
    private let connection: SQLiteConnection
    /// The names of the tables whose every row the deletion removes.
    private var wholeTables: Set<String> = []
    /// Whether the work tables exist on this connection in this transaction.
    private var hasWorkTables = false

    private static let doomed = "temp.Z_BATCHDELETE"
    private static let nullified = "temp.Z_BATCHNULLIFIED"

    init(store: SQLiteStore, connection: SQLiteConnection) {
        self.store = store
        self.connection = connection
    }

    /// A relationship of the rows of one entity, with where its destinations are kept.
    private struct Step {
        let entity: EntitySchema
        let number: Int64
        let table: SQLiteSchema.EntityTable
        let relationship: RelationshipDescription
        let destinationTable: SQLiteSchema.EntityTable
    }

    // MARK: The rows the request names

    /// Marks every row of `table` as deleted.
    mutating func deleteWholeTable(_ table: SQLiteSchema.EntityTable) {
        wholeTables.insert(table.name)
    }

    /// Marks the rows `condition` selects from `table` (as `t0`) as deleted.
    mutating func deleteRows(of table: SQLiteSchema.EntityTable, where condition: String, _ parameters: [SQLiteValue])
        throws
    {
        try createWorkTables()
        let sql =
            "INSERT INTO \(Self.doomed) (Z_ENT, Z_PK, Z_ROUND) SELECT t0.Z_ENT, t0.Z_PK, 0 FROM \(table.name) AS t0"
        try connection.statement(sql + (condition.isEmpty ? "" : " WHERE " + condition)).execute(parameters)
    }

    /// Marks the objects `objectIDs` as deleted; throws ``StoreError/Code/unknownObject``
    /// naming the first one the store does not hold.
    mutating func deleteObjects(_ objectIDs: [ObjectID]) throws {
        try createWorkTables()
        var byNamespace: [ObjectID.Namespace: [Int64]] = [:]
        for objectID in objectIDs {
            guard objectID.storeIdentifier == store.identifier, case .integer(let key) = objectID.reference,
                store.entityRowsByNamespace[objectID.namespace] != nil
            else { throw unknown(objectID) }
            byNamespace[objectID.namespace, default: []].append(key)
        }
        for (namespace, keys) in byNamespace {
            guard let row = store.entityRowsByNamespace[namespace] else { continue }
            let sql =
                "INSERT OR IGNORE INTO \(Self.doomed) (Z_ENT, Z_PK, Z_ROUND) SELECT Z_ENT, Z_PK, 0 "
                + "FROM \(row.reader.tableName) WHERE Z_ENT = \(row.number) AND Z_PK IN (\(SQLiteStore.keyList))"
            try SQLiteStore.forEachBatch(of: keys) { try connection.cachedStatement(sql).execute($0) }
        }
        let found = try Set(
            connection.statement("SELECT Z_PK, Z_ENT FROM \(Self.doomed)").rowsThrowing([]) {
                try store.objectID(primaryKey: $0.value(at: 0), entityNumber: $0.value(at: 1))
            })
        if let missing = objectIDs.first(where: { !found.contains($0) }) { throw unknown(missing) }
    }

    private func unknown(_ objectID: ObjectID) -> StoreError {
        StoreError(code: .unknownObject, message: "\(store.storeName) holds no object \(objectID) to delete.")
    }

    // MARK: Delete rules

    /// Adds the destinations of the cascade rules, round after round, until a round adds none.
    mutating func cascade() throws {
        let steps = self.steps(.cascade)
        var round: Int64 = 0
        while true {
            var added: Int64 = 0
            for step in steps where !wholeTables.contains(step.destinationTable.name) {
                guard let source = sources(of: step, round: round) else { continue }
                try createWorkTables()
                let sql =
                    "INSERT OR IGNORE INTO \(Self.doomed) (Z_ENT, Z_PK, Z_ROUND) SELECT d.Z_ENT, d.Z_PK, \(round + 1) "
                    + destinations(of: step, from: source)
                try connection.statement(sql).execute()
                added += connection.changes
            }
            guard added > 0 else { return }
            round += 1
        }
    }

    /// The deny rules the deletion would break: each deleted object whose deny relationship
    /// holds an object that stays.
    func denials() throws -> [StoreBatchDeleteResult.Denial] {
        var denials: [StoreBatchDeleteResult.Denial] = []
        for step in steps(.deny) where !wholeTables.contains(step.destinationTable.name) {
            guard let source = sources(of: step, round: nil) else { continue }
            let sql =
                "SELECT s.Z_PK, s.Z_ENT, d.Z_PK, d.Z_ENT " + destinations(of: step, from: source)
                + " AND \(staying("d")) ORDER BY s.Z_PK, d.Z_PK"
            let pairs = try connection.statement(sql).rowsThrowing([]) {
                (
                    try store.objectID(primaryKey: $0.value(at: 0), entityNumber: $0.value(at: 1)),
                    try store.objectID(primaryKey: $0.value(at: 2), entityNumber: $0.value(at: 3))
                )
            }
            denials += StoreBatchDeleteResult.Denial.grouping(pairs, relationship: step.relationship.name)
        }
        return denials
    }

    /// Empties the inverse relationships the nullify rules name of the objects that stay,
    /// raising each changed object's version once; returns the changed objects when `listing`.
    mutating func nullify(listing: Bool) throws -> [NullifiedObject] {
        let steps = self.steps(.nullify).filter { step in
            step.relationship.inverseName != nil && !wholeTables.contains(step.destinationTable.name)
        }
        var touchedTables: [SQLiteSchema.EntityTable] = []
        for step in steps {
            guard let source = sources(of: step, round: nil) else { continue }
            try createWorkTables()
            try connection.statement(
                "INSERT OR IGNORE INTO \(Self.nullified) (Z_ENT, Z_PK, Z_KEY) SELECT d.Z_ENT, d.Z_PK, ? "
                    + destinations(of: step, from: source) + " AND \(staying("d"))"
            ).execute([.text(step.relationship.inverseName ?? "")])
            guard connection.changes > 0 else { continue }
            if !touchedTables.contains(step.destinationTable) { touchedTables.append(step.destinationTable) }
            try clearInverseColumns(of: step)
        }
        guard !touchedTables.isEmpty else { return [] }
        for table in touchedTables {
            try connection.statement(
                "UPDATE \(table.name) SET Z_OPT = Z_OPT + 1 WHERE Z_PK IN "
                    + "(SELECT Z_PK FROM \(Self.nullified) WHERE Z_ENT IN (\(numbers(of: table))))"
            ).execute()
        }
        guard listing else { return [] }
        let rows = try connection.statement(
            "SELECT Z_PK, Z_ENT, Z_KEY FROM \(Self.nullified) ORDER BY Z_ENT, Z_PK"
        ).rowsThrowing([]) { row -> (objectID: ObjectID, relationship: String)? in
            guard case .text(let key) = row.value(at: 2) else { return nil }
            return (try store.objectID(primaryKey: row.value(at: 0), entityNumber: row.value(at: 1)), key)
        }
        return NullifiedObject.grouping(rows.compactMap { $0 })
    }

    /// Sets to null the columns of a to-one inverse of `step` that point at deleted rows, in the
    /// rows that stay (a to-many inverse keeps no column on their side).
    private func clearInverseColumns(of step: Step) throws {
        guard let inverseName = step.relationship.inverseName,
            let destination = store.model.entitiesByName[step.relationship.destinationEntityName],
            let inverse = destination.relationshipsByName[inverseName], !inverse.isToMany
        else { return }
        let layout = store.layout
        let owner = layout.declaringEntity(of: inverseName, in: destination, model: store.model)
        let table = step.destinationTable
        guard let key = layout.columnIndex(.toOne(entity: owner, name: inverseName), in: table) else { return }
        let cleared = [
            key, layout.columnIndex(.toOneEntity(entity: owner, name: inverseName), in: table),
            layout.columnIndex(.order(entity: owner, name: inverseName), in: table),
        ].compactMap { $0 }.map { "\(table.columns[$0].name) = NULL" }
        let sourceKeys =
            wholeTables.contains(step.table.name)
            ? "SELECT Z_PK FROM \(step.table.name) WHERE Z_ENT = \(step.number)"
            : "SELECT Z_PK FROM \(Self.doomed) WHERE Z_ENT = \(step.number)"
        try connection.statement(
            "UPDATE \(table.name) AS d SET \(cleared.joined(separator: ", ")) "
                + "WHERE d.\(table.columns[key].name) IN (\(sourceKeys)) AND \(staying("d"))"
        ).execute()
    }

    // MARK: Results and the deletion itself

    /// How many rows of the work table the request named (rather than a cascade).
    func markedMatchCount() throws -> Int {
        guard hasWorkTables else { return 0 }
        let counts = try connection.statement("SELECT count(*) FROM \(Self.doomed) WHERE Z_ROUND = 0").rows {
            $0.value(at: 0)
        }
        guard case .integer(let count)? = counts.first else { return 0 }
        return Int(count)
    }

    /// The deleted objects, with whether the request named them (rather than a cascade).
    func deletedObjects() throws -> (matched: [ObjectID], all: [ObjectID]) {
        var matched: [ObjectID] = []
        var cascaded: [ObjectID] = []
        for table in store.layout.entityTables where wholeTables.contains(table.name) {
            matched += try connection.statement("SELECT Z_PK, Z_ENT FROM \(table.name)").rowsThrowing([]) {
                try store.objectID(primaryKey: $0.value(at: 0), entityNumber: $0.value(at: 1))
            }
        }
        if hasWorkTables {
            let statement = try connection.statement("SELECT Z_PK, Z_ENT, Z_ROUND FROM \(Self.doomed)")
            while try statement.step() {
                let objectID = try store.objectID(
                    primaryKey: statement.value(at: 0), entityNumber: statement.value(at: 1))
                if case .integer(0) = statement.value(at: 2) {
                    matched.append(objectID)
                } else {
                    cascaded.append(objectID)
                }
            }
        }
        return (matched, cascaded.isEmpty ? matched : matched + cascaded)
    }

    /// The external data files of the marked rows, which the deletion makes obsolete.
    ///
    /// - Throws: ``StoreError`` with code `corrupt` when a row names a file no store writes.
    func externalFilesOfMarkedRows() throws -> [ExternalDataFileName] {
        var files: [ExternalDataFileName] = []
        for table in store.layout.entityTables where wholeTables.contains(table.name) || hasWorkTables {
            for column in table.columns {
                guard case .attribute(let entity, let name) = column.role,
                    store.model.entitiesByName[entity]?.attributesByName[name]?.storesExternally == true
                else { continue }
                let marked =
                    wholeTables.contains(table.name)
                    ? "" : " AND Z_PK IN (SELECT Z_PK FROM \(Self.doomed) WHERE Z_ENT IN (\(numbers(of: table))))"
                files += try connection.statement(
                    "SELECT \(column.name), Z_PK FROM \(table.name) WHERE substr(\(column.name), 1, 1) = x'02'\(marked)"
                ).rowsThrowing([]) { row in
                    try SQLiteExternalData.fileName(
                        in: row.value(at: 0),
                        place:
                            "\(store.storeName), '\(entity).\(name)' of the row \(row.value(at: 1)) of \(table.name),")
                }.compactMap { $0 }
            }
        }
        return files
    }

    /// Deletes the marked rows and their join-table rows, and empties the work tables; returns
    /// how many rows the whole tables had.
    func deleteMarkedRows() throws -> Int {
        var wholeRows = 0
        for table in store.layout.entityTables {
            if wholeTables.contains(table.name) {
                try connection.statement("DELETE FROM \(table.name)").execute()
                wholeRows += Int(connection.changes)
            } else if hasWorkTables {
                try connection.statement(
                    "DELETE FROM \(table.name) WHERE Z_PK IN "
                        + "(SELECT Z_PK FROM \(Self.doomed) WHERE Z_ENT IN (\(numbers(of: table))))"
                ).execute()
            }
        }
        for join in store.layout.joinTables {
            guard let own = store.layout.tableOfEntity[join.entity],
                let other = store.layout.tableOfEntity[join.inverseEntity]
            else { continue }
            if wholeTables.contains(own.name) || wholeTables.contains(other.name) {
                try connection.statement("DELETE FROM \(join.name)").execute()
            } else if hasWorkTables {
                try connection.statement(
                    "DELETE FROM \(join.name) WHERE "
                        + "\(join.sourceColumn) IN (SELECT Z_PK FROM \(Self.doomed) WHERE Z_ENT IN (\(numbers(of: own)))) "
                        + "OR \(join.destinationColumn) IN "
                        + "(SELECT Z_PK FROM \(Self.doomed) WHERE Z_ENT IN (\(numbers(of: other))))"
                ).execute()
            }
        }
        for references in store.layout.referenceTables {
            guard let own = store.layout.tableOfEntity[references.entity] else { continue }
            if wholeTables.contains(own.name) {
                try connection.statement("DELETE FROM \(references.name)").execute()
            } else if hasWorkTables {
                try connection.statement(
                    "DELETE FROM \(references.name) WHERE \(references.ownerColumn) IN "
                        + "(SELECT Z_PK FROM \(Self.doomed) WHERE Z_ENT IN (\(numbers(of: own))))"
                ).execute()
            }
        }
        if hasWorkTables {
            try connection.execute(script: "DELETE FROM \(Self.doomed); DELETE FROM \(Self.nullified);")
        }
        return wholeRows
    }

    // MARK: SQL pieces

    /// Creates the work tables on first use; they live as long as the connection and are
    /// empty between deletions.
    private mutating func createWorkTables() throws {
        guard !hasWorkTables else { return }
        try connection.execute(
            script: """
                CREATE TEMP TABLE IF NOT EXISTS Z_BATCHDELETE (Z_ENT INTEGER NOT NULL, Z_PK INTEGER NOT NULL,
                    Z_ROUND INTEGER NOT NULL, PRIMARY KEY (Z_ENT, Z_PK)) WITHOUT ROWID;
                CREATE TEMP TABLE IF NOT EXISTS Z_BATCHNULLIFIED (Z_ENT INTEGER NOT NULL, Z_PK INTEGER NOT NULL,
                    Z_KEY TEXT NOT NULL, PRIMARY KEY (Z_ENT, Z_PK, Z_KEY)) WITHOUT ROWID;
                """)
        hasWorkTables = true
    }

    /// Every relationship whose delete rule is `rule`, of every entity with rows.
    private func steps(_ rule: RelationshipDescription.DeleteRule) -> [Step] {
        store.layout.entityTables.flatMap { table in
            store.model.relationships(of: table.entities, withDeleteRule: rule).compactMap {
                entity, relationship -> Step? in
                guard let number = store.layout.entityNumbers[entity.name],
                    let destinationTable = store.layout.tableOfEntity[relationship.destinationEntityName]
                else { return nil }
                return Step(
                    entity: entity, number: number, table: table, relationship: relationship,
                    destinationTable: destinationTable)
            }
        }
    }

    /// The deleted rows of `step`'s entity as `s`, in `round` of the cascade (every round when
    /// `nil`): a `FROM` clause and its condition. `nil` when there can be none.
    private func sources(of step: Step, round: Int64?) -> (from: String, condition: String)? {
        if wholeTables.contains(step.table.name) {
            guard round == nil || round == 0 else { return nil }
            return ("FROM \(step.table.name) s", "s.Z_ENT = \(step.number)")
        }
        guard hasWorkTables else { return nil }
        return ("FROM \(Self.doomed) s", "s.Z_ENT = \(step.number)" + (round.map { " AND s.Z_ROUND = \($0)" } ?? ""))
    }

    /// A `FROM … WHERE …` joining the source rows `s` to the rows `d` their relationship holds.
    private func destinations(of step: Step, from source: (from: String, condition: String)) -> String {
        let layout = store.layout
        let destination = step.destinationTable.name
        let relationship = step.relationship
        if !relationship.isToMany {
            let owner = layout.declaringEntity(of: relationship.name, in: step.entity, model: store.model)
            let column =
                layout.columnIndex(.toOne(entity: owner, name: relationship.name), in: step.table)
                .map { step.table.columns[$0].name } ?? "NULL"
            let row = wholeTables.contains(step.table.name) ? "s" : "e"
            let rowJoin = row == "e" ? " JOIN \(step.table.name) e ON e.Z_PK = s.Z_PK" : ""
            return
                "\(source.from)\(rowJoin) JOIN \(destination) d ON d.Z_PK = \(row).\(column) WHERE \(source.condition)"
        }
        switch layout.toManyStorage(of: relationship, in: step.entity, model: store.model) {
        case .foreignKey(_, let column, _, _)?:
            return "\(source.from) JOIN \(destination) d ON d.\(column) = s.Z_PK WHERE \(source.condition)"
        case .joinTable(let name, let ownColumn, let memberColumn, _, _)?:
            return "\(source.from) JOIN \(name) j ON j.\(ownColumn) = s.Z_PK "
                + "JOIN \(destination) d ON d.Z_PK = j.\(memberColumn) WHERE \(source.condition)"
        case .references?, nil:
            return "\(source.from) JOIN \(destination) d ON 0 WHERE \(source.condition)"
        }
    }

    /// The condition that row `alias` is not deleted.
    private func staying(_ alias: String) -> String {
        guard hasWorkTables else { return "1" }
        return "NOT EXISTS (SELECT 1 FROM \(Self.doomed) x WHERE x.Z_ENT = \(alias).Z_ENT AND x.Z_PK = \(alias).Z_PK)"
    }

    /// The entity numbers of `table`'s entities, comma-separated.
    private func numbers(of table: SQLiteSchema.EntityTable) -> String {
        table.entities.compactMap { store.layout.entityNumbers[$0] }.map(String.init).joined(separator: ", ")
    }
}
