import Strata

extension SQLiteStore {
    public func snapshot(for objectID: ObjectID) throws -> Snapshot? {
        try snapshot(for: objectID, in: nil)
    }

    public func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        try relatedObjectIDs(of: objectID, relationship: relationship, in: nil)
    }

    /// The state of `objectID`, latest or in `generation`'s read transaction.
    func snapshot(for objectID: ObjectID, in generation: SQLiteGeneration?) throws -> Snapshot? {
        if entityRowsByNamespace[objectID.namespace] == nil {
            _ = try entitySchema(named: objectID.entityName)
            guard objectID.storeIdentifier == identifier else { return nil }
        }
        guard case .integer = objectID.reference else { return nil }
        return try read("loading \(objectID)", in: generation) { try loadSnapshot(objectID, on: $0) }
    }

    /// The members of `relationship` of `objectID`, latest or in `generation`'s read transaction.
    func relatedObjectIDs(
        of objectID: ObjectID, relationship: String, in generation: SQLiteGeneration?
    ) throws -> [ObjectID] {
        let key = try primaryKey(of: objectID)
        let sql: String
        if let known = entityRowsByNamespace[objectID.namespace]?.membersByKey[relationship] {
            sql = known
        } else {
            let entity = try entitySchema(named: objectID.entityName)
            let description = try entity.toManyRelationship(named: relationship, storeName: storeName)
            sql = try membersStatement(of: description, in: entity, owners: "= ?")
        }
        return try read("loading \(objectID).\(relationship)", in: generation) { connection in
            // One statement answers whether the owner exists and who its members are: a row
            // per member, or one row with a null member for an owner without any.
            statistics.recordSingleLoad()
            let rows = try connection.cachedStatement(sql).rows([.integer(key)]) { statement in
                (0..<4).map { statement.value(at: $0) }
            }
            guard let first = rows.first, try self.objectID(primaryKey: first[0], entityNumber: first[1]) == objectID
            else { throw try missingObjectError(objectID, on: connection) }
            return try rows.compactMap { row in
                row[2] == .null ? nil : try memberID(row[2], entityNumber: row[3])
            }
        }
    }

    /// The stored state of `objectID`, read on `connection`; `nil` when there is no such row.
    func loadSnapshot(_ objectID: ObjectID, on connection: SQLiteConnection) throws -> Snapshot? {
        let row = try entityRow(of: objectID)
        guard objectID.storeIdentifier == identifier, case .integer(let key) = objectID.reference else { return nil }
        statistics.recordSingleLoad()
        let table = row.table
        let statement = try connection.cachedStatement(row.reader.selectByKey)
        try statement.bind([.integer(key)])
        defer { statement.reset() }
        guard try statement.step() else { return nil }
        let snapshot = try snapshot(at: statement, in: table)
        return snapshot.objectID == objectID ? snapshot : nil
    }

    /// The members of the to-many `relationship` of `objectID`, in order when it is ordered.
    func loadMembers(
        of objectID: ObjectID, relationship: RelationshipDescription, in entity: EntitySchema,
        on connection: SQLiteConnection
    ) throws -> [ObjectID] {
        let key = try primaryKey(of: objectID)
        let storage = try toManyStorage(of: relationship, in: entity)
        let sql: String
        switch storage {
        case .foreignKey(let table, let column, _, let orderColumn):
            let order = orderColumn.map { "\($0), " } ?? ""
            sql = "SELECT Z_PK, Z_ENT FROM \(table.name) WHERE \(column) = ? ORDER BY \(order)Z_PK"
        case .joinTable(let name, let ownColumn, let memberColumn, let orderColumn, let memberTable):
            let order = orderColumn.map { "j.\($0), " } ?? ""
            sql =
                "SELECT m.Z_PK, m.Z_ENT FROM \(name) j JOIN \(memberTable.name) m ON m.Z_PK = j.\(memberColumn) "
                + "WHERE j.\(ownColumn) = ? ORDER BY \(order)j.\(memberColumn)"
        case .references(let table):
            let order = table.orderColumn.map { "\($0), " } ?? ""
            sql =
                "SELECT \(table.referenceColumn), NULL FROM \(table.name) WHERE \(table.ownerColumn) = ? "
                + "ORDER BY \(order)\(table.referenceColumn)"
        }
        statistics.recordSingleLoad()
        return try connection.cachedStatement(sql).rows([.integer(key)]) { statement in
            (statement.value(at: 0), statement.value(at: 1))
        }.map { try memberID($0.0, entityNumber: $0.1) }
    }

    /// Where the layout keeps the members of the to-many `relationship` of `entity`.
    ///
    /// - Throws: `StoreError/Code/unsupported` when the layout has no place for them.
    func toManyStorage(
        of relationship: RelationshipDescription, in entity: EntitySchema
    ) throws -> SQLiteSchema.ToManyStorage {
        guard let storage = storedToMany(of: relationship, in: entity) else {
            throw StoreError(
                code: .unsupported,
                message: "\(storeName) has no place for '\(entity.name).\(relationship.name)' in its layout.")
        }
        return storage
    }

    /// Where the layout keeps the members of the to-many `relationship` of `entity`, as worked
    /// out when the store opened; `nil` when the layout has no place for them.
    func storedToMany(of relationship: RelationshipDescription, in entity: EntitySchema) -> SQLiteSchema.ToManyStorage?
    {
        toManyStorages[entity.name]?[relationship.name]
            ?? layout.toManyStorage(of: relationship, in: entity, model: model)
    }
}
