import Strata

extension PostgresStore {
    /// Applies `changes` in one transaction: locks the rows of updated and deleted objects
    /// (`SELECT … FOR UPDATE`), checks their versions and the uniqueness constraints, writes
    /// rows, memberships, the history transaction (when the store tracks history) and
    /// metadata, calls `decision`, and commits. A conflict, a refused constraint, a lost
    /// connection or a decision that throws rolls everything back.
    public func save(_ changes: StoreChangeSet, committingAfter decision: () throws -> Void) throws {
        guard !options.isReadOnly else {
            throw StoreError(code: .readOnly, message: "\(storeName) was opened read-only.")
        }
        guard !changes.isEmpty else { return try decision() }
        // A held generation keeps the server from vacuuming what later saves leave behind.
        generations.releaseExpired(maximumAge: settings.maximumGenerationAge)
        let saved = try recordedHistory.recording { note in
            try withConnection { connection in
                try connection.transaction {
                    let metadata = try write(changes, note: note, notifying: true, on: connection)
                    try decision()
                    return metadata
                }
            }
        }
        if let saved { setMetadata(saved) }
    }

    /// The statements of a save, in its transaction; hands `note` the number of the history
    /// transaction it records, if any, and returns the metadata it writes, if any. Listeners
    /// hear of the history transaction at the commit when `notifying`.
    func write(
        _ changes: StoreChangeSet, note: (Int64) -> Void, notifying: Bool, on connection: PostgresConnection
    ) throws -> StoreMetadata? {
        let stored = try lockedVersions(
            of: changes.updated.map(\.objectID) + changes.deleted.map(\.objectID), on: connection)
        try changes.checkVersions { stored[$0] }
        try changes.checkUniqueness(schema: model, storeName: storeName) { keys, values in
            try uniqueMatches(keys, values, on: connection)
        }
        let recordsHistory = options.tracksPersistentHistory && changes.changesObjects
        let tombstones = recordsHistory ? try tombstoneSnapshots(of: changes.deleted, on: connection) : [:]
        try connection.executeInPipeline(try insertStatements(changes.inserted))
        try moveKeySequence(past: changes.inserted.map(\.objectID), on: connection)
        try updateRows(changes.updated, on: connection)
        try deleteRows(changes.deleted.map(\.objectID), on: connection)
        try saveMemberships(of: changes.inserted, isNew: true, on: connection)
        try saveMemberships(of: changes.updated, isNew: false, on: connection)
        if recordsHistory {
            note(try recordHistory(of: changes, stored: tombstones, notifying: notifying, on: connection))
        }
        guard let userInfo = changes.userInfo else { return nil }
        var metadata = self.metadata
        metadata.userInfo = userInfo
        try PostgresStoreDatabase.writeMetadata(metadata, in: location, on: connection)
        return metadata
    }

    /// Moves the key sequence past the largest key `inserted` gives an object, so that a key
    /// this store did not hand out (a save completed from a save log, a migration keeping its
    /// source's numbers) is never handed out afterwards; keys up to the largest this instance
    /// handed out need nothing. The sequence is read and set in one
    /// statement; another writer handing out keys past that key in between would see it set
    /// back, which takes a store written by others while objects are copied into it.
    private func moveKeySequence(past inserted: [ObjectID], on connection: PostgresConnection) throws {
        let largest = inserted.lazy.compactMap { objectID -> Int64? in
            guard case .integer(let key) = objectID.reference else { return nil }
            return key
        }.max()
        guard let largest, largest > largestKeyHandedOut.withLock({ $0 }) else { return }
        _ = try connection.execute(
            "SELECT setval($1::regclass, $2) WHERE $2 > coalesce(pg_sequence_last_value($1::regclass), 0)",
            [.text(layout.qualified(PostgresLayout.keySequence)), .bigint(largest)])
    }

    /// The stored versions of those of `objectIDs` the store has, their rows locked until the
    /// transaction ends.
    private func lockedVersions(of objectIDs: [ObjectID], on connection: PostgresConnection) throws
        -> [ObjectID: Int64]
    {
        var versions: [ObjectID: Int64] = [:]
        for group in try keysByTable(objectIDs) {
            let rows = try connection.execute(
                "SELECT _pk, _ent, _opt FROM \(group.reader.qualifiedName) WHERE _pk = ANY($1::int8[]) "
                    + "ORDER BY _pk FOR UPDATE",
                [.bigintArray(group.keys)])
            for row in 0..<rows.rowCount {
                guard let key = rows.int64(row, 0), let version = rows.int64(row, 2),
                    let entity = group.reader.entityName(rows, row: row)
                else { continue }
                versions[objectID(entity, key)] = version
            }
        }
        return versions
    }

    /// The saved objects of `keys`' entities holding `values`, for the uniqueness check.
    private func uniqueMatches(_ keys: UniqueKeys, _ values: [AttributeValue], on connection: PostgresConnection)
        throws -> [ObjectID]
    {
        let kinds = keys.entityNames.filter(entityNames.contains)
        guard !kinds.isEmpty else { return [] }
        let request = StoreFetchRequest(
            entityName: keys.entityName, predicate: keys.predicate(matching: values), resultType: .objectIDs)
        guard case .objectIDs(let found) = try execute(request, on: connection) else { return [] }
        return found.filter { kinds.contains($0.entityName) }
    }

    /// The statements inserting the rows of `inserted`: one multi-row `INSERT` per table for up
    /// to ``rowsPerInsert`` rows, its values bound as parameters (at most 65 535 per statement).
    private func insertStatements(_ inserted: [StoreChangeSet.ObjectChange]) throws -> [(
        sql: String, parameters: [PostgresValue]
    )] {
        var rowsByTable: [String: (reader: PostgresRowReader, rows: [[PostgresValue]])] = [:]
        var tables: [String] = []
        for change in inserted {
            let entity = try entitySchema(named: change.objectID.entityName)
            let (reader, number, key) = try place(of: change.objectID)
            let values = reader.columnValues(change.values, entity: entity, layout: layout)
            if rowsByTable[reader.qualifiedName] == nil {
                tables.append(reader.qualifiedName)
                rowsByTable[reader.qualifiedName] = (reader, [])
            }
            rowsByTable[reader.qualifiedName]?.rows.append([.bigint(key), .smallint(number), .bigint(1)] + values)
        }
        return tables.compactMap { rowsByTable[$0] }.flatMap { reader, rows in
            let names = ["_pk", "_ent", "_opt"].map(PostgresIdentifier.quoted) + reader.writtenColumns.map(\.quoted)
            let width = names.count
            let chunk = max(1, min(Self.rowsPerInsert, Self.maximumParameters / width))
            return stride(from: 0, to: rows.count, by: chunk).map { start in
                let part = rows[start..<min(start + chunk, rows.count)]
                let tuples = part.indices.map { row in
                    let first = (row - start) * width
                    return "(" + (1...width).map { "$\(first + $0)" }.joined(separator: ", ") + ")"
                }
                return (
                    "INSERT INTO \(reader.qualifiedName) (\(names.joined(separator: ", "))) VALUES "
                        + tuples.joined(separator: ", "),
                    Array(part.joined())
                )
            }
        }
    }

    /// The most rows one `INSERT` statement writes: enough that a statement's round trip is
    /// shared by many rows, few enough that its text and parameters stay small.
    static let rowsPerInsert = 500
    /// The most parameters PostgreSQL's protocol lets one statement bind.
    private static let maximumParameters = 65_535

    /// Updates the rows of `changes` (whose versions the save checked, the rows locked), adding
    /// one to each version and writing the columns of the keys each change lists as changed
    /// (every column when it lists none). Rows given the same values in the same columns (the
    /// rows a delete rule nullified, owners whose to-many members alone changed) are updated by
    /// one statement; the others one statement a row, in one pipeline. A row the statements do
    /// not find is a conflict, listed with every other such object.
    private func updateRows(_ changes: [StoreChangeSet.ObjectChange], on connection: PostgresConnection) throws {
        struct Assignment: Hashable {
            let table: String
            let columns: [String]
            let values: [PostgresValue]
        }
        var shared: [Assignment: [StoreChangeSet.ObjectChange]] = [:]
        var order: [Assignment] = []
        for change in changes {
            let entity = try entitySchema(named: change.objectID.entityName)
            let reader = try place(of: change.objectID).reader
            let values = reader.columnValues(change.values, entity: entity, layout: layout)
            let written = zip(reader.writtenColumns, values).filter { column, _ in
                guard let changed = change.changedKeys else { return true }
                return column.role.propertyName.map(changed.contains) ?? false
            }
            let assignment = Assignment(
                table: reader.qualifiedName, columns: written.map(\.0.quoted), values: written.map(\.1))
            if shared[assignment] == nil { order.append(assignment) }
            shared[assignment, default: []].append(change)
        }
        var statements: [(sql: String, parameters: [PostgresValue])] = []
        var updated: [[StoreChangeSet.ObjectChange]] = []
        for assignment in order {
            guard let group = shared[assignment] else { continue }
            let sets = ["_opt = _opt + 1"] + assignment.columns.enumerated().map { "\($0.element) = $\($0.offset + 2)" }
            let keys = try group.map { try place(of: $0.objectID).key }
            statements.append(
                (
                    "UPDATE \(assignment.table) SET \(sets.joined(separator: ", ")) WHERE _pk = ANY($1::int8[])",
                    [.bigintArray(keys)] + assignment.values
                ))
            updated.append(group)
        }
        let results = try connection.executeInPipeline(statements)
        let missed = zip(updated, results).filter { $0.0.count != $0.1.changedRows }.flatMap(\.0)
        guard missed.isEmpty else {
            throw StoreError(
                code: .conflict,
                message:
                    "\(storeName) holds other versions of \(missed.map(\.objectID.description).joined(separator: ", ")).",
                conflicts: missed.map {
                    .init(objectID: $0.objectID, expectedVersion: $0.expectedVersion, storedVersion: nil)
                })
        }
    }

    /// Deletes the rows of `objectIDs` and their join-table and reference-table rows: one
    /// statement per table, whatever the number of objects.
    private func deleteRows(_ objectIDs: [ObjectID], on connection: PostgresConnection) throws {
        for group in try keysByTable(objectIDs) {
            let (name, keys) = (group.reader.table.name, PostgresValue.bigintArray(group.keys))
            try connection.execute("DELETE FROM \(group.reader.qualifiedName) WHERE _pk = ANY($1::int8[])", [keys])
            let tree = Set(group.reader.table.entities)
            for table in layout.joinTables {
                if tree.contains(table.entity) {
                    try connection.execute(
                        "DELETE FROM \(layout.qualified(table.name)) WHERE source = ANY($1::int8[])", [keys])
                }
                if layout.tableOfEntity[table.destinationEntity]?.name == name {
                    try connection.execute(
                        "DELETE FROM \(layout.qualified(table.name)) WHERE destination = ANY($1::int8[])", [keys])
                }
            }
            for table in layout.referenceTables where tree.contains(table.entity) {
                try connection.execute(
                    "DELETE FROM \(layout.qualified(table.name)) WHERE owner = ANY($1::int8[])", [keys])
            }
        }
    }

    /// The primary keys of `objectIDs`, grouped by the table holding their rows, in the
    /// tables' name order (the order rows are locked in).
    private func keysByTable(_ objectIDs: [ObjectID]) throws -> [(reader: PostgresRowReader, keys: [Int64])] {
        var groups: [String: (reader: PostgresRowReader, keys: [Int64])] = [:]
        for objectID in objectIDs {
            let (reader, _, key) = try place(of: objectID)
            groups[reader.table.name, default: (reader, [])].keys.append(key)
        }
        return groups.sorted { $0.key < $1.key }.map(\.value)
    }
}
