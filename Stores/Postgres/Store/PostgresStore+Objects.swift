import Strata

extension PostgresStore {
    public func snapshot(for objectID: ObjectID) throws -> Snapshot? {
        try withConnection { try snapshot(for: objectID, on: $0) }
    }

    /// The saved state of `objectID`, read on `connection` (inside its transaction, if any).
    func snapshot(for objectID: ObjectID, on connection: PostgresConnection) throws -> Snapshot? {
        let (reader, number, key) = try place(of: objectID)
        let rows = try connection.execute(
            "SELECT \(reader.selectList("t")) FROM \(reader.qualifiedName) t WHERE t._pk = $1 AND t._ent = $2",
            [.bigint(key), .smallint(number)])
        guard rows.rowCount == 1 else { return nil }
        return try reader.snapshot(rows, row: 0, storeName: storeName)
    }

    public func snapshots(for objectIDs: [ObjectID]) throws -> [Snapshot] {
        try withConnection { try snapshots(for: objectIDs, on: $0) }
    }

    /// The saved states of those of `objectIDs` the store has, one statement per table.
    func snapshots(for objectIDs: [ObjectID], on connection: PostgresConnection) throws -> [Snapshot] {
        var keysByTable: [String: (reader: PostgresRowReader, keys: [Int64], wanted: Set<ObjectID>)] = [:]
        for objectID in objectIDs {
            let (reader, _, key) = try place(of: objectID)
            keysByTable[reader.table.name, default: (reader, [], [])].keys.append(key)
            keysByTable[reader.table.name]?.wanted.insert(objectID)
        }
        var snapshots: [Snapshot] = []
        for (_, group) in keysByTable.sorted(by: { $0.key < $1.key }) {
            let rows = try connection.execute(
                "SELECT \(group.reader.selectList("t")) FROM \(group.reader.qualifiedName) t WHERE t._pk = ANY($1::int8[])",
                [.bigintArray(group.keys)])
            for row in 0..<rows.rowCount {
                let snapshot = try group.reader.snapshot(rows, row: row, storeName: storeName)
                if group.wanted.contains(snapshot.objectID) { snapshots.append(snapshot) }
            }
        }
        return snapshots
    }

    public func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        try withConnection { try relatedObjectIDs(of: objectID, relationship: relationship, on: $0) }
    }

    /// The members of `relationship` of `objectID`, read on `connection`.
    func relatedObjectIDs(of objectID: ObjectID, relationship: String, on connection: PostgresConnection) throws
        -> [ObjectID]
    {
        guard try snapshot(for: objectID, on: connection) != nil else {
            throw StoreError(code: .unknownObject, message: "\(storeName) has no object \(objectID).")
        }
        return try members(of: objectID, relationship: relationship, on: connection)
    }

    /// The members of the to-many `relationship` of `objectID`, in order for an ordered one.
    func members(of objectID: ObjectID, relationship name: String, on connection: PostgresConnection) throws
        -> [ObjectID]
    {
        guard let query = try membersQuery(of: objectID, relationship: name) else { return [] }
        return try query.read(try connection.execute(query.sql, query.parameters))
    }

    /// A statement that reads the members of the to-many `relationship` of `objectID`, with
    /// how to read its rows; `nil` when the layout keeps none.
    private func membersQuery(of objectID: ObjectID, relationship name: String) throws -> (
        sql: String, parameters: [PostgresValue], read: (PostgresResult) throws -> [ObjectID]
    )? {
        let entity = try entitySchema(named: objectID.entityName)
        let relationship = try entity.toManyRelationship(named: name, storeName: storeName)
        let (_, number, key) = try place(of: objectID)
        if case .references(let table)? = layout.toManyStorage(of: relationship, in: entity, model: model) {
            return (
                "SELECT reference FROM \(layout.qualified(table.name)) WHERE owner = $1 ORDER BY position, reference",
                [.bigint(key)],
                { [storeName] rows in
                    try (0..<rows.rowCount).map { row in
                        try PostgresLayout.referencedObjectID(rows.value(row, 0), in: table.name, of: storeName)
                    }
                }
            )
        }
        let kinds = memberKinds(of: relationship)
        guard let storage = layout.toManyStorage(of: relationship, in: entity, model: model),
            let memberTable = layout.tableOfEntity[relationship.destinationEntityName],
            let reader = rowReaders[memberTable.name]
        else { return nil }
        let read: (PostgresResult) throws -> [ObjectID] = { rows in
            (0..<rows.rowCount).compactMap { row -> ObjectID? in
                guard let key = rows.int64(row, 0), let name = reader.entityName(rows, row: row) else { return nil }
                return self.objectID(name, key)
            }
        }
        switch storage {
        case .foreignKey(_, let column, let entityColumn, let orderColumn):
            var condition = "m.\(column.quoted) = $1"
            var parameters: [PostgresValue] = [.bigint(key), .array(Self.smallintArray(kinds))]
            if let entityColumn {
                condition += " AND m.\(entityColumn.quoted) = $3"
                parameters.append(.smallint(number))
            }
            let order = orderColumn.map { "m.\($0.quoted), " } ?? ""
            return (
                "SELECT m._pk, m._ent FROM \(reader.qualifiedName) m WHERE \(condition) AND m._ent = ANY($2::int2[]) "
                    + "ORDER BY \(order)m._pk",
                parameters, read
            )
        case .references: return nil
        case .joinTable(let table, let ownColumn, let memberColumn, let orderColumn):
            let order = orderColumn.map { "j.\($0), " } ?? ""
            return (
                "SELECT m._pk, m._ent FROM \(layout.qualified(table.name)) j JOIN \(reader.qualifiedName) m "
                    + "ON m._pk = j.\(memberColumn) WHERE j.\(ownColumn) = $1 AND m._ent = ANY($2::int2[]) "
                    + "ORDER BY \(order)m._pk",
                [.bigint(key), .array(Self.smallintArray(kinds))], read
            )
        }
    }

    public func relatedObjectIDs(ofEach objectIDs: [ObjectID], relationship: String) throws -> [ObjectID: [ObjectID]] {
        try withConnection { try relatedObjectIDs(ofEach: objectIDs, relationship: relationship, on: $0) }
    }

    /// The members of `relationship` of each of `objectIDs`, read on `connection`.
    func relatedObjectIDs(ofEach objectIDs: [ObjectID], relationship: String, on connection: PostgresConnection)
        throws -> [ObjectID: [ObjectID]]
    {
        let found = Set(try snapshots(for: objectIDs, on: connection).map(\.objectID))
        if let missing = objectIDs.first(where: { !found.contains($0) }) {
            throw StoreError(code: .unknownObject, message: "\(storeName) has no object \(missing).")
        }
        var members = try foreignKeyMembers(of: objectIDs, relationship: relationship, on: connection)
        // The others: one statement per owner, sent together through the pipeline.
        var queries:
            [(
                owner: ObjectID, sql: String, parameters: [PostgresValue],
                read: (PostgresResult) throws -> [ObjectID]
            )] = []
        for objectID in objectIDs where members[objectID] == nil {
            guard let query = try membersQuery(of: objectID, relationship: relationship) else {
                members[objectID] = []
                continue
            }
            queries.append((objectID, query.sql, query.parameters, query.read))
        }
        let results = try connection.executeInPipeline(queries.map { ($0.sql, $0.parameters) })
        for (query, rows) in zip(queries, results) { members[query.owner] = try query.read(rows) }
        return members
    }

    /// The members of `relationship` of those of `owners` whose entity keeps it as a foreign
    /// key in the members' rows with no entity-number column: one statement per member table
    /// reads them all, in each owner's order.
    private func foreignKeyMembers(
        of owners: [ObjectID], relationship name: String, on connection: PostgresConnection
    ) throws -> [ObjectID: [ObjectID]] {
        var groups:
            [String: (reader: PostgresRowReader, column: String, order: String, owners: [Int64], kinds: [Int16])] =
                [:]
        var ownerIDs: [Int64: ObjectID] = [:]
        for owner in owners {
            let entity = try entitySchema(named: owner.entityName)
            let relationship = try entity.toManyRelationship(named: name, storeName: storeName)
            guard
                case .foreignKey(_, let column, nil, let orderColumn)? = layout.toManyStorage(
                    of: relationship, in: entity, model: model),
                let memberTable = layout.tableOfEntity[relationship.destinationEntityName],
                let reader = rowReaders[memberTable.name]
            else { continue }
            let kinds = memberKinds(of: relationship)
            let order = orderColumn.map { "m.\($0.quoted), " } ?? ""
            let key = try place(of: owner).key
            ownerIDs[key] = owner
            groups[
                "\(reader.qualifiedName) \(column.quoted) \(order)", default: (reader, column.quoted, order, [], kinds)
            ]
            .owners.append(key)
        }
        var members: [ObjectID: [ObjectID]] = [:]
        for group in groups.values {
            for key in group.owners { if let owner = ownerIDs[key] { members[owner] = [] } }
            let rows = try connection.execute(
                "SELECT m._pk, m._ent, m.\(group.column) FROM \(group.reader.qualifiedName) m "
                    + "WHERE m.\(group.column) = ANY($1::int8[]) AND m._ent = ANY($2::int2[]) "
                    + "ORDER BY m.\(group.column), \(group.order)m._pk",
                [.bigintArray(group.owners), .array(Self.smallintArray(group.kinds))])
            for row in 0..<rows.rowCount {
                guard let key = rows.int64(row, 0), let name = group.reader.entityName(rows, row: row),
                    let ownerKey = rows.int64(row, 2), let owner = ownerIDs[ownerKey]
                else { continue }
                members[owner, default: []].append(objectID(name, key))
            }
        }
        return members
    }

    /// The entity numbers the members of `relationship` may have: its destination's and its
    /// sub-entities'.
    private func memberKinds(of relationship: RelationshipDescription) -> [Int16] {
        let destination = model.entitiesByName[relationship.destinationEntityName]
        return ([relationship.destinationEntityName] + (destination?.descendantNames ?? []))
            .compactMap { layout.entityNumbers[$0] }
    }

    public func permanentIDs(forEntities entityNames: [String]) throws -> [ObjectID] {
        for name in Set(entityNames) { _ = try entitySchema(named: name) }
        guard !entityNames.isEmpty else { return [] }
        let keys = try withConnection { connection in
            let rows = try connection.execute(
                "SELECT nextval($2::regclass) FROM generate_series(1, $1)",
                [.integer(Int32(entityNames.count)), .text(layout.qualified(PostgresLayout.keySequence))])
            return (0..<rows.rowCount).compactMap { rows.int64($0, 0) }.sorted()
        }
        guard keys.count == entityNames.count else {
            throw StoreError(
                code: .io, message: "\(storeName) handed out \(keys.count) keys for \(entityNames.count) objects.")
        }
        largestKeyHandedOut.withLock { $0 = max($0, keys.last ?? 0) }
        return zip(entityNames, keys).map { objectID($0, $1) }
    }

    /// An `int2[]` in its text form.
    static func smallintArray(_ values: [Int16]) -> String {
        "{" + values.map(String.init).joined(separator: ",") + "}"
    }
}
