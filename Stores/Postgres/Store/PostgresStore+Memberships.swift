import Strata

/// How a save writes the members of to-many relationships: a few statements per relationship,
/// whatever its size, each taking the member keys as one array parameter.
extension PostgresStore {
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
