import Strata

extension SQLiteStore {
    /// Hands out keys reserved earlier when enough are left; otherwise raises each root
    /// entity's `Z_PRIMARYKEY.Z_MAX` by a block (``KeyReservations``) in one write and hands out
    /// the block's first keys.
    public func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID] {
        let roots = try entityNames.map { try entitySchema(named: $0).rootEntityName }
        return try reservedKeys.handOut(
            ObjectID.Namespace.namespaces(storeIdentifier: identifier, entityNames: entityNames), roots: roots,
            reserving: raiseKeyCounters)
    }

    /// Raises the `Z_MAX` of each root entity of `blocks` by its block, in one write; by only
    /// the count `minimums` gives when the block would pass `Int64.max`. Returns each root's
    /// first new key and how many it reserved.
    private func raiseKeyCounters(
        by blocks: [String: Int64], atLeast minimums: [String: Int64]
    ) throws -> [String: (first: Int64, block: Int64)] {
        try write("handing out primary keys") { connection in
            var raised: [String: (first: Int64, block: Int64)] = [:]
            for (root, block) in blocks {
                guard let number = layout.entityNumbers[root] else { continue }
                let maxima = try connection.cachedStatement("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?")
                    .rows([.integer(number)]) { $0.value(at: 0) }
                let maximum: Int64
                switch maxima.first {
                case .integer(let stored)?: maximum = stored
                case nil, .null?:
                    throw StoreError(
                        code: .corrupt, message: "\(storeName) has no Z_PRIMARYKEY row for entity '\(root)'.")
                case let stored?:
                    throw StoreError(
                        code: .corrupt,
                        message: "\(storeName) holds a Z_PRIMARYKEY.Z_MAX for entity '\(root)' that is not a whole "
                            + "number (\(stored)); the store is damaged.")
                }
                let reserved = KeyReservations.reservable(block, orAtLeast: minimums[root] ?? block, past: maximum)
                let (last, overflow) = maximum.addingReportingOverflow(reserved)
                guard !overflow else {
                    throw StoreError(
                        code: .corrupt,
                        message: "\(storeName) holds a Z_PRIMARYKEY.Z_MAX for entity '\(root)' that cannot count "
                            + "\(reserved) further (it is \(maximum)); the store is damaged.")
                }
                try connection.cachedStatement("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?")
                    .execute([.integer(last), .integer(number)])
                raised[root] = (maximum &+ 1, reserved)
            }
            return raised
        }
    }

    /// Writes `changes` in one `BEGIN IMMEDIATE` transaction, calls `decision` before the
    /// `COMMIT`, and rolls back when it throws.
    public func save(_ changes: StoreChangeSet, committingAfter decision: () throws -> Void) throws {
        guard !options.isReadOnly else {
            throw StoreError(code: .readOnly, message: "\(storeName) was opened read-only.")
        }
        var newMetadata: StoreMetadata?
        let external = ExternalBinaryDataWrites()
        do {
            try save(changes, external: external, committingAfter: decision) { newMetadata = $0 }
        } catch {
            external.failed(in: externalData.files)
            throw error
        }
        external.committed(
            in: externalData.files, removals: externalRemovals, oldestReader: generations.oldestOpened)
        if let newMetadata { setMetadata(newMetadata) }
    }

    /// Saves `changes` in one transaction that commits once `decision` returns, noting in
    /// `external` the files it writes and those it makes obsolete, and handing `newMetadata`
    /// the metadata it writes, if any.
    private func save(
        _ changes: StoreChangeSet, external: ExternalBinaryDataWrites, committingAfter decision: () throws -> Void,
        newMetadata: (StoreMetadata) -> Void
    ) throws {
        try recordedHistory.recording { note in
            try write("saving") { connection in
                external.startAttempt()
                let versions = try storedVersions(
                    of: changes.inserted.map(\.objectID) + changes.updated.map(\.objectID)
                        + changes.deleted.map(\.objectID),
                    on: connection)
                try changes.checkVersions { versions[$0] }
                try changes.checkUniqueness(schema: model, storeName: storeName) { constraint, values in
                    try storedObjects(holding: values, of: constraint, on: connection)
                }
                let recordsHistory = options.tracksPersistentHistory && changes.changesObjects
                let tombstones = recordsHistory ? try historyTombstones(of: changes.deleted, on: connection) : [:]
                let previous = try storedExternalValues(
                    of: changes.updated.map(\.objectID) + changes.deleted.map(\.objectID), on: connection)
                for deletion in changes.deleted {
                    for (name, stored) in previous[deletion.objectID] ?? [:] {
                        if let file = try SQLiteExternalData.fileName(
                            in: stored, place: externalPlace(deletion.objectID, name))
                        {
                            external.obsolete.append(file)
                        }
                    }
                }
                try delete(changes.deleted.map(\.objectID), on: connection)
                try releaseConstrainedKeys(of: changes, on: connection)
                for index in changes.inserted.indices {
                    try insert(changes.inserted[index], external: external, on: connection)
                }
                try raisePrimaryKeyMaxima(past: changes.inserted, on: connection)
                for index in changes.updated.indices {
                    let previous = previous[changes.updated[index].objectID] ?? [:]
                    try update(changes.updated[index], previous: previous, external: external, on: connection)
                }
                let written = Self.writtenValues(of: changes)
                for index in changes.inserted.indices {
                    try saveMemberships(of: changes.inserted[index], isNew: true, written: written, on: connection)
                }
                try saveMemberships(ofUpdated: changes.updated, on: connection)
                if recordsHistory { try recordHistory(of: changes, tombstones: tombstones, note: note, on: connection) }
                if let userInfo = changes.userInfo {
                    let stored = self.metadata
                    var metadata = stored
                    metadata.userInfo = userInfo
                    try SQLiteStoreFile.writeMetadata(metadata, on: connection, replacing: stored)
                    newMetadata(metadata)
                }
                try decision()
            }
        }
    }

    /// The values `changes` writes to the rows of its inserted and updated objects, by object,
    /// when a new object has to-many members (whose rows may already lead back to it); empty
    /// otherwise.
    private static func writtenValues(of changes: StoreChangeSet) -> [ObjectID: PropertyValues] {
        guard changes.inserted.contains(where: { $0.toManyRelationships.contains { !$0.value.isEmpty } }) else {
            return [:]
        }
        var written: [ObjectID: PropertyValues] = [:]
        written.reserveCapacity(changes.inserted.count + changes.updated.count)
        for index in changes.inserted.indices {
            written[changes.inserted[index].objectID] = changes.inserted[index].values
        }
        for index in changes.updated.indices {
            written[changes.updated[index].objectID] = changes.updated[index].values
        }
        return written
    }

    /// Names the store, entity, attribute `name` and object `objectID`, for errors about its
    /// external data.
    func externalPlace(_ objectID: ObjectID, _ name: String) -> String {
        "\(storeName), '\(objectID.entityName).\(name)' of \(objectID),"
    }

    /// What the external-data columns of each of `objectIDs` hold, for the objects whose entity
    /// has such columns.
    private func storedExternalValues(
        of objectIDs: [ObjectID], on connection: SQLiteConnection
    ) throws -> [ObjectID: [String: SQLiteValue]] {
        var stored: [ObjectID: [String: SQLiteValue]] = [:]
        guard hasExternalAttributes else { return stored }
        for objectID in objectIDs {
            let row = try entityRow(of: objectID)
            let columns = row.reader.externalAttributes
            guard !columns.isEmpty else { continue }
            let names = columns.map { row.table.columns[$0.index].name }.joined(separator: ", ")
            let statement = try connection.cachedStatement("SELECT \(names) FROM \(row.table.name) WHERE Z_PK = ?")
            let values = try statement.rows([.integer(try primaryKey(of: objectID))]) { row in
                columns.indices.map { row.value(at: $0) }
            }
            guard let values = values.first else { continue }
            stored[objectID] = Dictionary(uniqueKeysWithValues: zip(columns.map(\.name), values))
        }
        return stored
    }

    /// The stored version of each of `objectIDs` the store holds as that entity: one statement
    /// per table and batch of ``batchKeyCount`` keys.
    private func storedVersions(
        of objectIDs: [ObjectID], on connection: SQLiteConnection
    ) throws -> [ObjectID: Int64] {
        var versions: [ObjectID: Int64] = [:]
        for (table, keys) in try keysByTable(objectIDs) {
            let sql = "SELECT Z_PK, Z_ENT, Z_OPT FROM \(table.name) WHERE Z_PK IN (\(Self.keyList))"
            try Self.forEachBatch(of: keys) { batch in
                let statement = try connection.cachedStatement(sql)
                try statement.bind(batch)
                defer { statement.reset() }
                while try statement.step() {
                    let objectID = try objectID(
                        primaryKey: statement.value(at: 0), entityNumber: statement.value(at: 1))
                    guard case .integer(let version) = statement.value(at: 2) else {
                        throw StoreError(
                            code: .corrupt, message: "\(storeName) has no version (Z_OPT) for \(objectID).")
                    }
                    versions[objectID] = version
                }
            }
        }
        return versions
    }

    /// Deletes the rows of `objectIDs` and their join-table rows: one statement per table and
    /// batch of ``batchKeyCount`` keys.
    private func delete(_ objectIDs: [ObjectID], on connection: SQLiteConnection) throws {
        for (table, keys) in try keysByTable(objectIDs) {
            var statements = ["DELETE FROM \(table.name) WHERE Z_PK IN (\(Self.keyList))"]
            for join in layout.joinTables {
                if table.entities.contains(join.entity) {
                    statements.append("DELETE FROM \(join.name) WHERE \(join.sourceColumn) IN (\(Self.keyList))")
                }
                if table.entities.contains(join.inverseEntity) {
                    statements.append("DELETE FROM \(join.name) WHERE \(join.destinationColumn) IN (\(Self.keyList))")
                }
            }
            for references in layout.referenceTables where table.entities.contains(references.entity) {
                statements.append(
                    "DELETE FROM \(references.name) WHERE \(references.ownerColumn) IN (\(Self.keyList))")
            }
            try Self.forEachBatch(of: keys) { batch in
                for sql in statements { try connection.cachedStatement(sql).execute(batch) }
            }
        }
    }

    /// The primary keys of this store's `objectIDs`, grouped by the table holding their rows.
    func keysByTable(
        _ objectIDs: [ObjectID]
    ) throws -> [(table: SQLiteSchema.EntityTable, keys: [Int64])] {
        var byNamespace: [ObjectID.Namespace: [Int64]] = [:]
        for objectID in objectIDs {
            guard case .integer(let key) = objectID.reference else { continue }
            byNamespace[objectID.namespace, default: []].append(key)
        }
        var groups: [String: (table: SQLiteSchema.EntityTable, keys: [Int64])] = [:]
        for (namespace, keys) in byNamespace where namespace.storeIdentifier == identifier {
            let table = try entityRowsByNamespace[namespace]?.table ?? table(of: namespace.entityName)
            groups[table.name, default: (table, [])].keys += keys
        }
        return groups.values.sorted { $0.table.name < $1.table.name }
    }

    /// The columns and values that store `change`'s attributes and to-one references.
    private func columnValues(
        of change: StoreChangeSet.ObjectChange, in table: SQLiteSchema.EntityTable,
        previous: [String: SQLiteValue], external: ExternalBinaryDataWrites
    ) throws -> [(String, SQLiteValue)] {
        let entity = try entitySchema(named: change.objectID.entityName)
        let reader = rowReader(of: entity, in: table)
        var result: [(String, SQLiteValue)] = []
        for (key, value) in change.values.sorted(by: { $0.key < $1.key }) {
            if let attribute = entity.attributesByName[key] {
                guard let index = reader.attributeIndexes[key] else { continue }
                let stored =
                    attribute.storesExternally
                    ? try externalData.columnValue(
                        for: value, previous: previous[key], writes: external,
                        place: externalPlace(change.objectID, key))
                    : SQLiteValueCodec.encode(value)
                result.append((table.columns[index].name, stored))
                continue
            }
            guard let toOne = reader.toOnesByName[key], let index = toOne.index else { continue }
            let destination = try destinationColumns(of: value, in: toOne)
            result.append((table.columns[index].name, destination.key))
            if let entityIndex = toOne.entityIndex {
                result.append((table.columns[entityIndex].name, destination.entity))
            }
        }
        return result
    }

    /// The key and entity-number columns' values of `toOne` pointing at `value`; the key column
    /// of a relationship leading to another store's objects holds the object's URI.
    private func destinationColumns(
        of value: AttributeValue, in toOne: SQLiteRowReader.ToOneColumn
    ) throws -> (key: SQLiteValue, entity: SQLiteValue) {
        guard case .objectID(let target) = value else { return (.null, .null) }
        if toOne.isReference { return (.text(target.uriString), .null) }
        return (.integer(try primaryKey(of: target)), .integer(layout.entityNumbers[target.entityName] ?? 0))
    }

    /// Inserts `change`'s row with its entity's one statement: every attribute and to-one
    /// column, null where the change has no value.
    private func insert(
        _ change: StoreChangeSet.ObjectChange, external: ExternalBinaryDataWrites, on connection: SQLiteConnection
    ) throws {
        let row = try entityRow(of: change.objectID)
        var values: [SQLiteValue] = [.integer(try primaryKey(of: change.objectID)), .integer(row.number), .integer(1)]
        try appendColumnValues(
            of: change, in: row.reader, to: &values, forUpdate: false, previous: [:], external: external)
        try connection.cachedStatement(row.reader.insertStatement).execute(values)
    }

    /// Appends the values of every attribute and to-one column of `reader` that `change` sets,
    /// in the reader's order, null where the change has no value; for an update, derived
    /// attributes are left out. External binary data is written as `external` notes, keeping a
    /// file of `previous` that holds the same bytes.
    private func appendColumnValues(
        of change: StoreChangeSet.ObjectChange, in reader: SQLiteRowReader, to values: inout [SQLiteValue],
        forUpdate: Bool, previous: [String: SQLiteValue], external: ExternalBinaryDataWrites
    ) throws {
        values.reserveCapacity(values.count + reader.attributes.count + 2 * reader.toOnes.count + 1)
        func column(_ attribute: SQLiteRowReader.AttributeColumn, _ value: AttributeValue) throws -> SQLiteValue {
            guard attribute.isExternal else { return SQLiteValueCodec.encode(value) }
            return try externalData.columnValue(
                for: value, previous: previous[attribute.name], writes: external,
                place: externalPlace(change.objectID, attribute.name))
        }
        if let slots = change.values.slots(for: reader.entity) {
            for attribute in reader.attributes where !(forUpdate && attribute.isDerived) {
                values.append(try column(attribute, slots[attribute.slot]))
            }
            for toOne in reader.toOnes where toOne.index != nil {
                let destination = try destinationColumns(of: slots[toOne.slot], in: toOne)
                values.append(destination.key)
                if toOne.entityIndex != nil { values.append(destination.entity) }
            }
            return
        }
        for attribute in reader.attributes where !(forUpdate && attribute.isDerived) {
            values.append(try column(attribute, change.values[attribute.name] ?? .null))
        }
        for toOne in reader.toOnes where toOne.index != nil {
            let destination = try destinationColumns(of: change.values[toOne.name] ?? .null, in: toOne)
            values.append(destination.key)
            if toOne.entityIndex != nil { values.append(destination.entity) }
        }
    }

    /// Raises each root entity's `Z_MAX` to the largest primary key `inserted` gives it, and
    /// gives up the keys reserved up to it: a key this store did not hand out (a save completed
    /// from a save log, a migration keeping its source's numbers) is never handed out afterwards.
    private func raisePrimaryKeyMaxima(
        past inserted: [StoreChangeSet.ObjectChange], on connection: SQLiteConnection
    ) throws {
        var largestByEntity: [ObjectID.Namespace: Int64] = [:]
        for change in inserted {
            largestByEntity[change.objectID.namespace] = max(
                largestByEntity[change.objectID.namespace] ?? .min, try primaryKey(of: change.objectID))
        }
        var largest: [String: Int64] = [:]
        for (namespace, key) in largestByEntity {
            let root = try entitySchema(named: namespace.entityName).rootEntityName
            largest[root] = max(largest[root] ?? .min, key)
        }
        let statement = try connection.cachedStatement("UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, ?) WHERE Z_ENT = ?")
        for (root, key) in largest {
            try statement.execute([.integer(key), .integer(layout.entityNumbers[root] ?? 0)])
        }
        reservedKeys.withLock { reserved in
            for (root, key) in largest { reserved.skip(past: key, of: root) }
        }
    }

    /// Updates `change`'s row: with its entity's one statement when the change gives every
    /// stored attribute and to-one (as a context's changes do), else with a statement for the
    /// columns it gives.
    private func update(
        _ change: StoreChangeSet.ObjectChange, previous: [String: SQLiteValue], external: ExternalBinaryDataWrites,
        on connection: SQLiteConnection
    ) throws {
        let key = try primaryKey(of: change.objectID)
        let reader = try entityRow(of: change.objectID).reader
        if change.values.slots(for: reader.entity) != nil
            || (reader.attributes.allSatisfy({ $0.isDerived || change.values[$0.name] != nil })
                && reader.toOnes.allSatisfy({ change.values[$0.name] != nil }))
        {
            var values: [SQLiteValue] = []
            try appendColumnValues(
                of: change, in: reader, to: &values, forUpdate: true, previous: previous, external: external)
            values.append(.integer(key))
            try connection.cachedStatement(reader.updateStatement).execute(values)
            return
        }
        let table = try table(of: change.objectID.entityName)
        let columns = try columnValues(of: change, in: table, previous: previous, external: external)
        let assignments = (["Z_OPT = Z_OPT + 1"] + columns.map { "\($0.0) = ?" }).joined(separator: ", ")
        try connection.cachedStatement("UPDATE \(table.name) SET \(assignments) WHERE Z_PK = ?")
            .execute(columns.map(\.1) + [.integer(key)])
    }
}
