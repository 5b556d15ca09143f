import Strata

/// How a save writes the members of to-many relationships: a few statements per relationship,
/// whatever its size, each taking the member keys as one array parameter.
extension PostgresStore {
    /// Writes the members of the to-many relationships that `changes` list (new objects when
    /// `isNew`). A relationship kept as a foreign key in its members' rows is written for every
    /// owner at once, in at most three statements whatever the number of owners; the others
    /// owner by owner.
    func saveMemberships(
        of changes: [StoreChangeSet.ObjectChange], isNew: Bool, on connection: PostgresConnection
    ) throws {
        var groups: [ForeignKeyMembers] = []
        for change in changes where !change.toManyRelationships.isEmpty {
            let entity = try entitySchema(named: change.objectID.entityName)
            let (_, number, owner) = try place(of: change.objectID)
            var others = change
            for (name, members) in change.toManyRelationships.sorted(by: { $0.key < $1.key }) {
                guard let relationship = entity.relationshipsByName[name],
                    case .foreignKey(let table, let column, let entityColumn, let orderColumn)? = layout.toManyStorage(
                        of: relationship, in: entity, model: model)
                else { continue }
                others.toManyRelationships[name] = nil
                let group = ForeignKeyMembers(
                    target: layout.qualified(table.name), column: column, entityColumn: entityColumn,
                    orderColumn: orderColumn)
                let owned = (owner, Int64(number), try members.map { try place(of: $0).key })
                if let index = groups.firstIndex(where: { $0.target == group.target && $0.column == column }) {
                    groups[index].owners.append(owned)
                } else {
                    groups.append(group)
                    groups[groups.count - 1].owners.append(owned)
                }
            }
            if !others.toManyRelationships.isEmpty { try saveMemberships(of: others, isNew: isNew, on: connection) }
        }
        for group in groups { try save(group, isNew: isNew, on: connection) }
    }

    /// The owners of one to-many relationship kept as the foreign key `column` of the table
    /// `target`, each with its entity number and its members' keys in order.
    private struct ForeignKeyMembers {
        let target: String
        let column: PostgresLayout.Column
        let entityColumn: PostgresLayout.Column?
        let orderColumn: PostgresLayout.Column?
        var owners: [(key: Int64, entity: Int64, members: [Int64])] = []
    }

    /// Clears the key of the rows that leave their owner (not for new owners, which no row
    /// refers to yet), sets it on the rows that join (a member listed by two owners ends with
    /// the later), then sets the positions of an ordered relationship's members.
    private func save(_ group: ForeignKeyMembers, isNew: Bool, on connection: PostgresConnection) throws {
        var ownerOfMember: [Int64: (owner: Int64, entity: Int64, position: Int64)] = [:]
        for owner in group.owners {
            for (position, member) in owner.members.enumerated() {
                ownerOfMember[member] = (owner.key, owner.entity, Int64(position + 1))
            }
        }
        let members = ownerOfMember.keys.sorted()
        let column = group.column.quoted
        if !isNew {
            let clear = [group.column] + [group.entityColumn, group.orderColumn].compactMap { $0 }
            try connection.execute(
                "UPDATE \(group.target) SET \(clear.map { "\($0.quoted) = NULL" }.joined(separator: ", ")) "
                    + "WHERE \(column) = ANY($1::int8[]) AND NOT (_pk = ANY($2::int8[]))",
                [.bigintArray(group.owners.map(\.key)), .bigintArray(members)])
        }
        guard !members.isEmpty else { return }
        let owners = members.map { ownerOfMember[$0]!.owner }
        let setEntity = group.entityColumn.map { ", \($0.quoted) = m.entity::int2" } ?? ""
        let unchanged = group.entityColumn.map { " OR t.\($0.quoted) IS DISTINCT FROM m.entity::int2" } ?? ""
        try connection.execute(
            "UPDATE \(group.target) t SET \(column) = m.owner\(setEntity) "
                + "FROM unnest($1::int8[], $2::int8[], $3::int8[]) AS m(member, owner, entity) "
                + "WHERE t._pk = m.member AND (t.\(column) IS DISTINCT FROM m.owner\(unchanged))",
            [.bigintArray(members), .bigintArray(owners), .bigintArray(members.map { ownerOfMember[$0]!.entity })])
        guard let orderColumn = group.orderColumn else { return }
        try connection.execute(
            "UPDATE \(group.target) t SET \(orderColumn.quoted) = m.position "
                + "FROM unnest($1::int8[], $2::int8[]) AS m(member, position) WHERE t._pk = m.member",
            [.bigintArray(members), .bigintArray(members.map { ownerOfMember[$0]!.position })])
    }

    func saveMemberships(
        of change: StoreChangeSet.ObjectChange, isNew: Bool, on connection: PostgresConnection
    ) throws {
        guard !change.toManyRelationships.isEmpty else { return }
        let entity = try entitySchema(named: change.objectID.entityName)
        let (_, number, owner) = try place(of: change.objectID)
        for (name, members) in change.toManyRelationships.sorted(by: { $0.key < $1.key })
        where !isNew || !members.isEmpty {
            guard let relationship = entity.relationshipsByName[name],
                let storage = layout.toManyStorage(of: relationship, in: entity, model: model)
            else { continue }
            if case .references(let table) = storage {
                try saveReferences(members, of: owner, isNew: isNew, in: table, on: connection)
                continue
            }
            let keys = PostgresValue.bigintArray(try members.map { try place(of: $0).key })
            switch storage {
            case .foreignKey(let table, let column, let entityColumn, let orderColumn):
                let target = layout.qualified(table.name)
                if !isNew {
                    let clear = [column] + (entityColumn.map { [$0] } ?? []) + (orderColumn.map { [$0] } ?? [])
                    let ownerEntity = entityColumn.map { " AND \($0.quoted) = $3" } ?? ""
                    try connection.execute(
                        "UPDATE \(target) SET \(clear.map { "\($0.quoted) = NULL" }.joined(separator: ", ")) "
                            + "WHERE \(column.quoted) = $1\(ownerEntity) AND NOT (_pk = ANY($2::int8[]))",
                        [.bigint(owner), keys] + (entityColumn == nil ? [] : [.smallint(number)]))
                }
                let setEntity = entityColumn.map { ", \($0.quoted) = $3" } ?? ""
                try connection.execute(
                    "UPDATE \(target) SET \(column.quoted) = $1\(setEntity) WHERE _pk = ANY($2::int8[])",
                    [.bigint(owner), keys] + (entityColumn == nil ? [] : [.smallint(number)]))
                if let orderColumn {
                    try connection.execute(
                        "UPDATE \(target) t SET \(orderColumn.quoted) = p.position FROM unnest($1::int8[]) "
                            + "WITH ORDINALITY AS p(key, position) WHERE t._pk = p.key",
                        [keys])
                }
            case .joinTable(let table, let ownColumn, let memberColumn, let orderColumn):
                let target = layout.qualified(table.name)
                if !isNew {
                    try connection.execute(
                        "DELETE FROM \(target) WHERE \(ownColumn) = $1 AND NOT (\(memberColumn) = ANY($2::int8[]))",
                        [.bigint(owner), keys])
                }
                try connection.execute(
                    "INSERT INTO \(target) (\(ownColumn), \(memberColumn)) SELECT $1, unnest($2::int8[]) "
                        + "ON CONFLICT DO NOTHING",
                    [.bigint(owner), keys])
                if let orderColumn {
                    try connection.execute(
                        "UPDATE \(target) j SET \(orderColumn) = p.position FROM unnest($2::int8[]) "
                            + "WITH ORDINALITY AS p(key, position) WHERE j.\(ownColumn) = $1 AND j.\(memberColumn) = p.key",
                        [.bigint(owner), keys])
                }
            case .references: continue
            }
        }
    }

    /// A to-many leading to another store's objects: rows of members that leave are deleted,
    /// members that join get a row, and an ordered relationship's positions are set.
    private func saveReferences(
        _ members: [ObjectID], of owner: Int64, isNew: Bool, in table: PostgresLayout.ReferenceTable,
        on connection: PostgresConnection
    ) throws {
        let target = layout.qualified(table.name)
        let uris = PostgresValue.textArray(members.map(\.uriString))
        if !isNew {
            try connection.execute(
                "DELETE FROM \(target) WHERE owner = $1 AND NOT (reference = ANY($2::text[]))", [.bigint(owner), uris])
        }
        try connection.execute(
            "INSERT INTO \(target) (owner, reference) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING",
            [.bigint(owner), uris])
        guard table.isOrdered else { return }
        try connection.execute(
            "UPDATE \(target) r SET position = p.position FROM unnest($2::text[]) WITH ORDINALITY AS p(uri, position) "
                + "WHERE r.owner = $1 AND r.reference = p.uri",
            [.bigint(owner), uris])
    }
}
