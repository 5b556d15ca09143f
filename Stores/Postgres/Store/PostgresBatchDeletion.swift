import Strata

/// One batch deletion carried out in SQL, inside one transaction of the PostgreSQL store, with
/// the delete rules a context applies (``StoreBatchDelete``), a statement per rule and table
/// rather than a round trip per object.
///
/// The rows to delete gather in the temporary table `strata_batch_delete`, each with the round
/// of the cascade that reached it (0 for the rows the request names); keys are unique across
/// the store's tables, so a key names its row. A table whose every row goes is *whole*: its
/// rows are not copied, its relationships into itself need no work, and it is emptied with one
/// `DELETE`. The objects the nullify rules change gather in `strata_batch_nullified`, once per
/// relationship emptied; their versions grow by one. Both tables belong to the connection, are
/// made when first needed, and are emptied when the transaction ends.
final class PostgresBatchDeletion {
    private let store: PostgresStore
    private let connection: PostgresConnection
    /// The entity of each entity number.
    private let entityNamesByNumber: [Int16: String]
    /// The names of the tables whose every row the deletion removes.
    private var wholeTables: Set<String> = []
    /// Whether the work tables exist on the connection in this transaction.
    private var hasWorkTables = false

    private static let doomed = "pg_temp.strata_batch_delete"
    private static let nullified = "pg_temp.strata_batch_nullified"

    /// A deletion on `connection`, inside the deletion's transaction.
    init(store: PostgresStore, connection: PostgresConnection) {
        self.store = store
        self.connection = connection
        entityNamesByNumber = Dictionary(
            store.layout.entityNumbers.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
    }

    /// A relationship of the rows of one entity, with the table of its destinations.
    private struct Step {
        let entity: EntitySchema
        let number: Int16
        let table: PostgresLayout.EntityTable
        let relationship: RelationshipDescription
        let destinationTable: PostgresLayout.EntityTable
    }

    // MARK: The rows the request names

    /// Marks every row of `table` as deleted.
    func markWholeTable(_ table: PostgresLayout.EntityTable) {
        wholeTables.insert(table.name)
    }

    /// Marks the rows `conditions` selects from the table `reader` reads (as `t`) as deleted.
    func markRows(of reader: PostgresRowReader, where conditions: String, _ parameters: [PostgresValue]) throws {
        try createWorkTables()
        try connection.execute(
            "INSERT INTO \(Self.doomed) (_pk, _ent, round) SELECT t._pk, t._ent, 0 FROM \(reader.qualifiedName) t "
                + "WHERE \(conditions)", parameters)
    }

    /// Marks the objects `objectIDs` as deleted; throws ``StoreError/Code/unknownObject``
    /// naming the first one the store does not hold.
    func markObjects(_ objectIDs: [ObjectID]) throws {
        try createWorkTables()
        var keys: [String: (reader: PostgresRowReader, entity: Int16, keys: [Int64])] = [:]
        for objectID in objectIDs {
            let (reader, entity, key) = try place(of: objectID)
            keys["\(reader.table.name)/\(entity)", default: (reader, entity, [])].keys.append(key)
        }
        for group in keys.values {
            try connection.execute(
                "INSERT INTO \(Self.doomed) (_pk, _ent, round) SELECT _pk, _ent, 0 FROM \(group.reader.qualifiedName) "
                    + "WHERE _pk = ANY($1::int8[]) AND _ent = $2 ON CONFLICT DO NOTHING",
                [.bigintArray(group.keys), .smallint(group.entity)])
        }
        let found = try Set(marked().map(\.objectID))
        if let missing = objectIDs.first(where: { !found.contains($0) }) { throw unknown(missing) }
    }

    private func place(of objectID: ObjectID) throws -> (PostgresRowReader, Int16, Int64) {
        do {
            return try store.place(of: objectID)
        } catch {
            throw unknown(objectID)
        }
    }

    private func unknown(_ objectID: ObjectID) -> StoreError {
        StoreError(code: .unknownObject, message: "\(store.storeName) holds no object \(objectID) to delete.")
    }

    // MARK: Delete rules

    /// Adds the destinations of the cascade rules, round after round, until a round adds none.
    func cascade() throws {
        let steps = self.steps(.cascade)
        var round: Int32 = 0
        while true {
            var added = 0
            for step in steps {
                guard let destinations = destinations(of: step, round: round) else { continue }
                try createWorkTables()
                added += try connection.execute(
                    "INSERT INTO \(Self.doomed) (_pk, _ent, round) SELECT DISTINCT d._pk, d._ent, \(round + 1) "
                        + destinations + " ON CONFLICT DO NOTHING"
                ).changedRows
            }
            guard added > 0 else { return }
            round += 1
        }
    }

    /// The deny rules the deletion would break: each deleted object whose deny relationship
    /// holds an object that stays.
    func denials() throws -> [StoreBatchDeleteResult.Denial] {
        var denials: [StoreBatchDeleteResult.Denial] = []
        for step in steps(.deny) {
            guard let destinations = destinations(of: step, round: nil) else { continue }
            let rows = try connection.execute(
                "SELECT s._pk, s._ent, d._pk, d._ent \(destinations) AND \(staying("d")) ORDER BY s._pk, d._pk")
            let pairs = try (0..<rows.rowCount).map { (try objectID(rows, $0, 0), try objectID(rows, $0, 2)) }
            denials += StoreBatchDeleteResult.Denial.grouping(pairs, relationship: step.relationship.name)
        }
        return denials
    }

    /// Empties the inverse relationships the nullify rules name of the objects that stay,
    /// raising each changed object's version once; returns the changed objects when `listing`.
    func nullify(listing: Bool) throws -> [NullifiedObject] {
        var touchedTables: [PostgresLayout.EntityTable] = []
        for step in steps(.nullify) {
            guard let inverseName = step.relationship.inverseName,
                let destinations = destinations(of: step, round: nil)
            else { continue }
            try createWorkTables()
            let changed = try connection.execute(
                "INSERT INTO \(Self.nullified) (_pk, _ent, key) SELECT DISTINCT d._pk, d._ent, $1::text "
                    + destinations + " AND \(staying("d")) ON CONFLICT DO NOTHING", [.text(inverseName)]
            ).changedRows
            guard changed > 0 else { continue }
            if !touchedTables.contains(step.destinationTable) { touchedTables.append(step.destinationTable) }
            try clearInverseColumns(of: step)
        }
        for table in touchedTables {
            try connection.execute(
                "UPDATE \(store.layout.qualified(table.name)) SET _opt = _opt + 1 "
                    + "WHERE _pk IN (SELECT DISTINCT _pk FROM \(Self.nullified))")
        }
        guard listing, !touchedTables.isEmpty else { return [] }
        let rows = try connection.execute("SELECT _pk, _ent, key FROM \(Self.nullified) ORDER BY _ent, _pk")
        return NullifiedObject.grouping(
            try (0..<rows.rowCount).compactMap { row in
                guard let key = rows.bytes(row, 2) else { return nil }
                return (try objectID(rows, row, 0), String(decoding: key, as: UTF8.self))
            })
    }

    /// Sets to null the columns of a to-one inverse of `step` that point at deleted rows, in the
    /// rows that stay (a to-many inverse keeps no column on their side).
    private func clearInverseColumns(of step: Step) throws {
        let layout = store.layout
        guard let inverseName = step.relationship.inverseName,
            let destination = store.model.entitiesByName[step.relationship.destinationEntityName],
            let inverse = destination.relationshipsByName[inverseName], !inverse.isToMany
        else { return }
        let owner = layout.declaringEntity(of: inverseName, from: destination.name, model: store.model)
        let table = step.destinationTable
        guard let key = table.column(.toOne(entity: owner, name: inverseName)) else { return }
        let cleared = [
            key, table.column(.toOneEntity(entity: owner, name: inverseName)),
            table.column(.order(entity: owner, name: inverseName)),
        ].compactMap { $0 }.map { "\($0.quoted) = NULL" }
        try connection.execute(
            "UPDATE \(layout.qualified(table.name)) AS d SET \(cleared.joined(separator: ", ")) "
                + "WHERE d.\(key.quoted) IN (SELECT _pk FROM \(sourceTable(of: step)) WHERE _ent = $1) "
                + "AND \(staying("d"))",
            [.smallint(step.number)])
    }

    // MARK: Results and the deletion itself

    /// The marked objects, each with whether the request named it (rather than a cascade).
    func marked() throws -> [(objectID: ObjectID, isMatched: Bool)] {
        var marked: [(objectID: ObjectID, isMatched: Bool)] = []
        for table in store.layout.entityTables where wholeTables.contains(table.name) {
            let rows = try connection.execute(
                "SELECT _pk, _ent FROM \(store.layout.qualified(table.name)) ORDER BY _pk")
            marked += try (0..<rows.rowCount).map { (try objectID(rows, $0, 0), true) }
        }
        guard hasWorkTables else { return marked }
        let rows = try connection.execute("SELECT _pk, _ent, round FROM \(Self.doomed) ORDER BY round, _pk")
        return marked + (try (0..<rows.rowCount).map { (try objectID(rows, $0, 0), rows.value($0, 2) == .integer(0)) })
    }

    /// How many rows the request named (rather than a cascade).
    func matchedCount() throws -> Int {
        var count: Int64 = 0
        for table in store.layout.entityTables where wholeTables.contains(table.name) {
            count +=
                try connection.execute("SELECT count(*) FROM \(store.layout.qualified(table.name))").int64(0, 0) ?? 0
        }
        if hasWorkTables {
            count += try connection.execute("SELECT count(*) FROM \(Self.doomed) WHERE round = 0").int64(0, 0) ?? 0
        }
        return Int(count)
    }

    /// Deletes the marked rows, their join-table rows and their reference-table rows.
    func deleteMarkedRows() throws {
        let layout = store.layout
        let marked = "(SELECT _pk FROM \(Self.doomed))"
        let isWhole = { (entity: String) in
            layout.tableOfEntity[entity].map { self.wholeTables.contains($0.name) } ?? false
        }
        for table in layout.entityTables {
            if wholeTables.contains(table.name) {
                try connection.execute("DELETE FROM \(layout.qualified(table.name))")
            } else if hasWorkTables {
                try connection.execute("DELETE FROM \(layout.qualified(table.name)) WHERE _pk IN \(marked)")
            }
        }
        for table in layout.joinTables {
            if isWhole(table.entity) || isWhole(table.destinationEntity) {
                try connection.execute("DELETE FROM \(layout.qualified(table.name))")
            } else if hasWorkTables {
                try connection.execute(
                    "DELETE FROM \(layout.qualified(table.name)) WHERE source IN \(marked) OR destination IN \(marked)")
            }
        }
        for table in layout.referenceTables {
            if isWhole(table.entity) {
                try connection.execute("DELETE FROM \(layout.qualified(table.name))")
            } else if hasWorkTables {
                try connection.execute("DELETE FROM \(layout.qualified(table.name)) WHERE owner IN \(marked)")
            }
        }
    }

    // MARK: SQL pieces

    /// Makes the work tables when this deletion first needs them; they live as long as the
    /// connection and are emptied when each transaction ends.
    private func createWorkTables() throws {
        guard !hasWorkTables else { return }
        try connection.execute(
            "CREATE TEMP TABLE IF NOT EXISTS strata_batch_delete (_pk int8 PRIMARY KEY, _ent int2 NOT NULL, "
                + "round int4 NOT NULL) ON COMMIT DELETE ROWS")
        try connection.execute(
            "CREATE TEMP TABLE IF NOT EXISTS strata_batch_nullified (_pk int8 NOT NULL, _ent int2 NOT NULL, "
                + "key text NOT NULL, PRIMARY KEY (_pk, key)) ON COMMIT DELETE ROWS")
        hasWorkTables = true
    }

    /// Where the deleted rows of `step`'s entity are listed: its table when it is whole,
    /// otherwise the work table.
    private func sourceTable(of step: Step) -> String {
        wholeTables.contains(step.table.name) ? store.layout.qualified(step.table.name) : Self.doomed
    }

    /// Every relationship whose delete rule is `rule`, of every entity of the store.
    private func steps(_ rule: RelationshipDescription.DeleteRule) -> [Step] {
        store.layout.entityTables.flatMap { table in
            store.model.relationships(of: table.entities, withDeleteRule: rule).compactMap {
                entity, relationship -> Step? in
                guard let number = store.layout.entityNumbers[entity.name],
                    let destinationTable = store.layout.tableOfEntity[relationship.destinationEntityName],
                    !wholeTables.contains(destinationTable.name)
                else { return nil }
                return Step(
                    entity: entity, number: number, table: table, relationship: relationship,
                    destinationTable: destinationTable)
            }
        }
    }

    /// A `FROM … WHERE …` joining the deleted rows of `step`'s entity as `s` (those of
    /// `round` of the cascade, or of every round when `nil`) to the rows `d` their
    /// relationship holds; `nil` when the relationship holds no row of the store.
    private func destinations(of step: Step, round: Int32?) -> String? {
        let layout = store.layout
        let destination = layout.qualified(step.destinationTable.name)
        let relationship = step.relationship
        let isWhole = wholeTables.contains(step.table.name)
        // A whole table's rows are all of the request's own round; the work table's, of theirs.
        guard isWhole ? (round ?? 0) == 0 : hasWorkTables else { return nil }
        let source = "FROM \(sourceTable(of: step)) s"
        let condition = "s._ent = \(step.number)" + (isWhole ? "" : round.map { " AND s.round = \($0)" } ?? "")
        if !relationship.isToMany {
            let owner = layout.declaringEntity(of: relationship.name, from: step.entity.name, model: store.model)
            guard let column = step.table.column(.toOne(entity: owner, name: relationship.name)) else { return nil }
            let row = isWhole ? "s" : "e"
            let rowJoin = isWhole ? "" : " JOIN \(layout.qualified(step.table.name)) e ON e._pk = s._pk"
            return "\(source)\(rowJoin) JOIN \(destination) d ON d._pk = \(row).\(column.quoted) WHERE \(condition)"
        }
        switch layout.toManyStorage(of: relationship, in: step.entity, model: store.model) {
        case .foreignKey(_, let column, _, _)?:
            return "\(source) JOIN \(destination) d ON d.\(column.quoted) = s._pk WHERE \(condition)"
        case .joinTable(let table, let ownColumn, let memberColumn, _)?:
            return "\(source) JOIN \(layout.qualified(table.name)) j ON j.\(ownColumn) = s._pk "
                + "JOIN \(destination) d ON d._pk = j.\(memberColumn) WHERE \(condition)"
        case .references?, nil:
            return nil
        }
    }

    /// The condition that row `alias`, of a table that is not whole, is not deleted.
    private func staying(_ alias: String) -> String {
        hasWorkTables ? "NOT EXISTS (SELECT 1 FROM \(Self.doomed) x WHERE x._pk = \(alias)._pk)" : "true"
    }

    /// The object of the key and entity number at `column` and `column + 1` of `row`.
    private func objectID(_ rows: PostgresResult, _ row: Int, _ column: Int) throws -> ObjectID {
        let key = rows.int64(row, column)
        let number = rows.value(row, column + 1)
        guard let key, case .smallint(let entity)? = number, let name = entityNamesByNumber[entity] else {
            throw StoreError(
                code: .corrupt,
                message: "\(store.storeName) has a row with key \(key.map(String.init) ?? "null") and entity number "
                    + "\(number.map { "\($0)" } ?? "null") that names no entity of its model, met in a batch deletion.")
        }
        return store.objectID(name, key)
    }
}
