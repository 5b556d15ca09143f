import Strata

/// How a save writes the members of to-many relationships: by difference with what the file
/// holds, so that a change touches only the rows (or join rows) that join or leave.
extension SQLiteStore {
    /// Writes the members of each to-many relationship `change` lists, changing only the rows
    /// that join or leave it (and, for an ordered one, every member's position). A new object's
    /// key was never handed out before (`Z_MAX` only grows), so no row refers to it yet:
    /// nothing needs reading, and an empty relationship needs no statement at all. A member
    /// whose row the same save wrote with its inverse to-one already leading to `change`'s
    /// object (`written` gives the values the save wrote, by object) needs no statement either.
    func saveMemberships(
        of change: StoreChangeSet.ObjectChange, isNew: Bool, written: [ObjectID: PropertyValues] = [:],
        on connection: SQLiteConnection
    ) throws {
        guard !isNew || change.toManyRelationships.contains(where: { !$0.value.isEmpty }) else { return }
        let entity = try entitySchema(named: change.objectID.entityName)
        let owner = try primaryKey(of: change.objectID)
        for (name, members) in change.toManyRelationships.sorted(by: { $0.key < $1.key })
        where !isNew || !members.isEmpty {
            guard let relationship = entity.relationshipsByName[name],
                let storage = storedToMany(of: relationship, in: entity)
            else { continue }
            switch storage {
            case .foreignKey(let table, let column, let entityColumn, let orderColumn):
                let setEntity = entityColumn.map { ", \($0) = \(layout.entityNumbers[entity.name] ?? 0)" } ?? ""
                let owned = Set(
                    isNew && orderColumn == nil && !written.isEmpty
                        ? members.filter { written[$0]?[relationship.inverseName ?? ""] == .objectID(change.objectID) }
                        : [])
                try saveForeignKeys(
                    try members.filter { !owned.contains($0) }.map { try primaryKey(of: $0) }, of: owner, isNew: isNew,
                    in: (table.name, column, setEntity, orderColumn), on: connection)
            case .joinTable(let table, let ownColumn, let memberColumn, let orderColumn, _):
                try saveJoinRows(
                    try members.map { .integer(try primaryKey(of: $0)) }, of: owner, isNew: isNew,
                    in: (table, ownColumn, memberColumn, orderColumn), on: connection)
            case .references(let table):
                try saveJoinRows(
                    members.map { .text($0.uriString) }, of: owner, isNew: isNew,
                    in: (table.name, table.ownerColumn, table.referenceColumn, table.orderColumn), on: connection)
            }
        }
    }

    /// Writes the members of the to-many relationships that the updated objects `changes` list.
    /// Unordered relationships kept as a foreign key in their members' rows are written as sets:
    /// one statement reads the stored members of a batch of owners, one clears the key of the
    /// rows that leave, and one per owner sets it on the rows that join. The others are written
    /// owner by owner, as ``saveMemberships(of:isNew:on:)`` does.
    func saveMemberships(ofUpdated changes: [StoreChangeSet.ObjectChange], on connection: SQLiteConnection) throws {
        var groups: [ForeignKeyMembers] = []
        for change in changes where !change.toManyRelationships.isEmpty {
            let entity = try entitySchema(named: change.objectID.entityName)
            var others = change
            for (name, members) in change.toManyRelationships {
                guard let relationship = entity.relationshipsByName[name],
                    case .foreignKey(let table, let column, let entityColumn, nil)? = storedToMany(
                        of: relationship, in: entity)
                else { continue }
                let owner = ForeignKeyMembers.Owner(
                    key: try primaryKey(of: change.objectID), members: try members.map { try primaryKey(of: $0) },
                    entityNumber: entityColumn.map { _ in layout.entityNumbers[entity.name] ?? 0 })
                if let index = groups.firstIndex(where: { $0.table == table.name && $0.column == column }) {
                    groups[index].owners.append(owner)
                } else {
                    groups.append(
                        ForeignKeyMembers(
                            table: table.name, column: column, entityColumn: entityColumn, owners: [owner]))
                }
                others.toManyRelationships[name] = nil
            }
            if !others.toManyRelationships.isEmpty { try saveMemberships(of: others, isNew: false, on: connection) }
        }
        for group in groups { try save(group, on: connection) }
    }

    /// The owners of one unordered to-many relationship kept as the foreign key `column` of
    /// `table`, with their new members.
    private struct ForeignKeyMembers {
        struct Owner {
            let key: Int64
            let members: [Int64]
            /// The owner's entity number, for the column of the owner's entity (`entityColumn`).
            let entityNumber: Int64?
        }
        let table: String
        let column: String
        let entityColumn: String?
        var owners: [Owner]
    }

    /// Reads the stored members of `group`'s owners a batch at a time, clears the key of the
    /// rows that leave, then sets it on the rows that join, owner by owner in order: a member
    /// moving from one owner to another ends with the second.
    private func save(_ group: ForeignKeyMembers, on connection: SQLiteConnection) throws {
        var stored: [Int64: Set<Int64>] = [:]
        let read = "SELECT Z_PK, \(group.column) FROM \(group.table) WHERE \(group.column) IN (\(Self.keyList))"
        try Self.forEachBatch(of: group.owners.map(\.key)) { batch in
            _ = try connection.cachedStatement(read).rows(batch) { row in
                if case .integer(let member) = row.value(at: 0), case .integer(let owner) = row.value(at: 1) {
                    stored[owner, default: []].insert(member)
                }
            }
        }
        var leaving: [Int64] = []
        for owner in group.owners {
            let members = Set(owner.members)
            leaving += (stored[owner.key] ?? []).filter { !members.contains($0) }.sorted()
        }
        let clear = "UPDATE \(group.table) SET \(group.column) = NULL WHERE Z_PK IN (\(Self.keyList))"
        try Self.forEachBatch(of: leaving) { batch in try connection.cachedStatement(clear).execute(batch) }
        for owner in group.owners {
            let held = stored[owner.key] ?? []
            let joining = owner.members.filter { !held.contains($0) }
            guard !joining.isEmpty else { continue }
            let setEntity =
                group.entityColumn.flatMap { column in owner.entityNumber.map { ", \(column) = \($0)" } } ?? ""
            let set = "UPDATE \(group.table) SET \(group.column) = ?\(setEntity) WHERE Z_PK IN (\(Self.keyList))"
            try Self.forEachBatch(of: joining) { batch in
                try connection.cachedStatement(set).execute([.integer(owner.key)] + batch)
            }
        }
    }

    /// A to-many kept as a foreign key in its members' rows (`setEntity` also sets the column of
    /// the owner's entity number, when the table has one): rows that leave lose the key, rows
    /// that join get it, one statement per batch of keys; an ordered relationship then sets
    /// every member's position.
    private func saveForeignKeys(
        _ members: [Int64], of owner: Int64, isNew: Bool,
        in place: (table: String, column: String, setEntity: String, orderColumn: String?),
        on connection: SQLiteConnection
    ) throws {
        var joining = members
        if !isNew {
            let change = try difference(
                members.map { .integer($0) }, "SELECT Z_PK FROM \(place.table) WHERE \(place.column) = ?", owner,
                connection)
            let clearOrder = place.orderColumn.map { ", \($0) = NULL" } ?? ""
            let sql = "UPDATE \(place.table) SET \(place.column) = NULL\(clearOrder) WHERE Z_PK IN (\(Self.keyList))"
            try Self.forEachBatch(of: change.leaving) { batch in try connection.cachedStatement(sql).execute(batch) }
            joining = change.joining.compactMap { if case .integer(let key) = $0 { key } else { nil } }
        }
        guard let orderColumn = place.orderColumn else {
            let sql = "UPDATE \(place.table) SET \(place.column) = ?\(place.setEntity) WHERE Z_PK IN (\(Self.keyList))"
            try Self.forEachBatch(of: joining) { batch in
                try connection.cachedStatement(sql).execute([.integer(owner)] + batch)
            }
            return
        }
        let statement = try connection.cachedStatement(
            "UPDATE \(place.table) SET \(place.column) = ?\(place.setEntity), \(orderColumn) = ? WHERE Z_PK = ?")
        for (position, member) in members.enumerated() {
            try statement.execute([.integer(owner), .integer(Int64(position + 1)), .integer(member)])
        }
    }

    /// A to-many kept in a join table (`members` are keys) or a reference table (URIs): rows of
    /// members that leave are deleted, one statement per batch, and members that join get a
    /// row. An ordered relationship's rows are written again whole, as every position may change.
    private func saveJoinRows(
        _ members: [SQLiteValue], of owner: Int64, isNew: Bool,
        in join: (table: String, ownColumn: String, memberColumn: String, orderColumn: String?),
        on connection: SQLiteConnection
    ) throws {
        var joining = members
        if !isNew, join.orderColumn != nil {
            try connection.cachedStatement("DELETE FROM \(join.table) WHERE \(join.ownColumn) = ?").execute([
                .integer(owner)
            ])
        } else if !isNew {
            let change = try difference(
                members, "SELECT \(join.memberColumn) FROM \(join.table) WHERE \(join.ownColumn) = ?", owner,
                connection)
            let sql =
                "DELETE FROM \(join.table) WHERE \(join.ownColumn) = ? AND \(join.memberColumn) IN (\(Self.keyList))"
            try Self.forEachBatch(of: change.leaving) { batch in
                try connection.cachedStatement(sql).execute([.integer(owner)] + batch)
            }
            joining = change.joining
        }
        guard !joining.isEmpty else { return }
        let columns = [join.ownColumn, join.memberColumn] + (join.orderColumn.map { [$0] } ?? [])
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let statement = try connection.cachedStatement(
            "INSERT OR REPLACE INTO \(join.table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))")
        for (position, member) in joining.enumerated() {
            let order: [SQLiteValue] = join.orderColumn == nil ? [] : [.integer(Int64(position + 1))]
            try statement.execute([.integer(owner), member] + order)
        }
    }

    /// The members `sql` selects for `owner` (those the file holds) that `members` leaves out,
    /// in the file's order, and the members of `members` it does not hold, in their order.
    private func difference(
        _ members: [SQLiteValue], _ sql: String, _ owner: Int64, _ connection: SQLiteConnection
    ) throws -> (leaving: [SQLiteValue], joining: [SQLiteValue]) {
        let stored = try connection.cachedStatement(sql).rows([.integer(owner)]) { $0.value(at: 0) }
        let storedSet = Set(stored)
        let memberSet = Set(members)
        return (stored.filter { !memberSet.contains($0) }, members.filter { !storedSet.contains($0) })
    }
}
