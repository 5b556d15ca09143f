import Strata

extension SQLiteStore {
    /// How many primary keys one batch statement binds. Shorter batches are padded with
    /// `NULL`, which matches no row, so that one cached statement serves every batch.
    static let batchKeyCount = 128

    /// The rows of `objectIDs`, read by primary key: one statement per table and batch of
    /// ``batchKeyCount`` keys.
    public func snapshots(for objectIDs: [ObjectID]) throws -> [Snapshot] {
        try snapshots(for: objectIDs, in: nil)
    }

    /// The rows of `objectIDs`, latest or in `generation`'s read transaction.
    func snapshots(for objectIDs: [ObjectID], in generation: SQLiteGeneration?) throws -> [Snapshot] {
        let wanted = Set(objectIDs.filter { $0.storeIdentifier == identifier })
        let groups = try keysByTable(Array(wanted))
        return try read("loading \(wanted.count) objects", in: generation) { connection in
            var snapshots: [Snapshot] = []
            for (table, keys) in groups {
                let sql = "SELECT \(selectList(table)) FROM \(table.name) t0 WHERE t0.Z_PK IN (\(Self.keyList))"
                try Self.forEachBatch(of: keys) { batch in
                    statistics.recordBatchLoad()
                    let statement = try connection.cachedStatement(sql)
                    try statement.bind(batch)
                    defer { statement.reset() }
                    while try statement.step() {
                        let snapshot = try snapshot(at: statement, in: table)
                        if wanted.contains(snapshot.objectID) { snapshots.append(snapshot) }
                    }
                }
            }
            return snapshots
        }
    }

    /// The members of the to-many `relationship` of each of `objectIDs`: one statement per
    /// entity and batch of ``batchKeyCount`` owners, each owner's members in the order
    /// ``relatedObjectIDs(of:relationship:)`` gives them.
    ///
    /// - Throws: `StoreError/Code/unknownObject` naming an owner the store does not have.
    public func relatedObjectIDs(
        ofEach objectIDs: [ObjectID], relationship: String
    ) throws -> [ObjectID: [ObjectID]] {
        try relatedObjectIDs(ofEach: objectIDs, relationship: relationship, in: nil)
    }

    /// The members of `relationship` of each of `objectIDs`, latest or in `generation`'s read
    /// transaction.
    func relatedObjectIDs(
        ofEach objectIDs: [ObjectID], relationship: String, in generation: SQLiteGeneration?
    ) throws -> [ObjectID: [ObjectID]] {
        let owners = Set(objectIDs)
        return try read("loading \(relationship) of \(owners.count) objects", in: generation) { connection in
            var members: [ObjectID: [ObjectID]] = [:]
            for (entityName, ids) in Dictionary(grouping: owners, by: \.entityName) {
                let entity = try entitySchema(named: entityName)
                let description = try entity.toManyRelationship(named: relationship, storeName: storeName)
                let sql = try membersStatement(of: description, in: entity, owners: "IN (\(Self.keyList))")
                let keys = try ids.map { try primaryKey(of: $0) }
                try Self.forEachBatch(of: keys) { batch in
                    statistics.recordBatchLoad()
                    let rows = try connection.cachedStatement(sql).rows(batch) { statement in
                        (0..<4).map { statement.value(at: $0) }
                    }
                    for row in rows {
                        let owner = try objectID(primaryKey: row[0], entityNumber: row[1])
                        guard owners.contains(owner) else { continue }
                        guard row[2] != .null else {
                            if members[owner] == nil { members[owner] = [] }
                            continue
                        }
                        members[owner, default: []].append(try memberID(row[2], entityNumber: row[3]))
                    }
                }
            }
            if let missing = owners.first(where: { members[$0] == nil }) {
                throw try missingObjectError(missing, on: connection)
            }
            return members
        }
    }

    /// The statement selecting, for the owners whose key matches `owners` (`= ?`, or an `IN`
    /// list), each owner's key and entity number with each member's key and entity number
    /// (`NULL` for an owner without members), members in the order single loads give them.
    func membersStatement(
        of relationship: RelationshipDescription, in entity: EntitySchema, owners condition: String
    ) throws -> String {
        Self.membersStatement(
            storage: try toManyStorage(of: relationship, in: entity), owners: try table(of: entity.name).name,
            condition: condition)
    }

    /// ``membersStatement(of:in:owners:)`` for a relationship kept as `storage` whose owners'
    /// rows are in the table `owners`.
    static func membersStatement(storage: SQLiteSchema.ToManyStorage, owners: String, condition: String) -> String {
        switch storage {
        case .foreignKey(let table, let column, _, let orderColumn):
            let order = orderColumn.map { "m.\($0), " } ?? ""
            return "SELECT o.Z_PK, o.Z_ENT, m.Z_PK, m.Z_ENT FROM \(owners) o "
                + "LEFT JOIN \(table.name) m ON m.\(column) = o.Z_PK "
                + "WHERE o.Z_PK \(condition) ORDER BY o.Z_PK, \(order)m.Z_PK"
        case .joinTable(let name, let ownColumn, let memberColumn, let orderColumn, let memberTable):
            let order = orderColumn.map { "j.\($0), " } ?? ""
            return "SELECT o.Z_PK, o.Z_ENT, m.Z_PK, m.Z_ENT FROM \(owners) o "
                + "LEFT JOIN \(name) j ON j.\(ownColumn) = o.Z_PK LEFT JOIN \(memberTable.name) m ON m.Z_PK = j.\(memberColumn) "
                + "WHERE o.Z_PK \(condition) ORDER BY o.Z_PK, \(order)j.\(memberColumn)"
        case .references(let table):
            let order = table.orderColumn.map { "r.\($0), " } ?? ""
            return "SELECT o.Z_PK, o.Z_ENT, r.\(table.referenceColumn), NULL FROM \(owners) o "
                + "LEFT JOIN \(table.name) r ON r.\(table.ownerColumn) = o.Z_PK "
                + "WHERE o.Z_PK \(condition) ORDER BY o.Z_PK, \(order)r.\(table.referenceColumn)"
        }
    }

    /// ``batchKeyCount`` parameters, comma-separated.
    static let keyList = Array(repeating: "?", count: batchKeyCount).joined(separator: ", ")

    /// Calls `body` with `keys` in batches of ``batchKeyCount`` values, the last padded with `NULL`.
    static func forEachBatch(of keys: [Int64], _ body: ([SQLiteValue]) throws -> Void) throws {
        try forEachBatch(of: keys.map { .integer($0) }, body)
    }

    /// Calls `body` with `values` in batches of ``batchKeyCount``, the last padded with `NULL`.
    static func forEachBatch(of values: [SQLiteValue], _ body: ([SQLiteValue]) throws -> Void) throws {
        for start in stride(from: 0, to: values.count, by: batchKeyCount) {
            let batch = values[start..<min(start + batchKeyCount, values.count)]
            try body(Array(batch) + Array(repeating: .null, count: batchKeyCount - batch.count))
        }
    }
}
