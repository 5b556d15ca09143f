import Strata

/// The members of one to-many relationship of an entity, as rows of their entity's table: in
/// the same table as the owner or another, found through the inverse's column or a join table.
struct ToManyMembers {
    /// The relationship's destination.
    let entity: EntitySchema
    /// The table holding the members' rows.
    let table: PostgresLayout.EntityTable
    let storage: PostgresLayout.ToManyStorage
    /// The entity numbers of the destination and its sub-entities, when the table holds
    /// other entities' rows too; `nil` when every row of the table is one.
    let entityNumbers: [Int16]?

    /// `FROM … WHERE …` selecting the members of the owner whose key `ownerKey` gives, each
    /// row under `alias`.
    func source(alias: String, ownerKey: String, layout: PostgresLayout) -> String {
        let kinds = entityNumbers.map { " AND \(alias)._ent IN (\($0.map(String.init).joined(separator: ", ")))" } ?? ""
        switch storage {
        case .foreignKey(_, let column, _, _):
            return "FROM \(layout.qualified(table.name)) \(alias) WHERE \(alias).\(column.quoted) = \(ownerKey)\(kinds)"
        case .joinTable(let joins, let ownColumn, let memberColumn, _):
            return "FROM \(layout.qualified(joins.name)) \(alias)_j JOIN \(layout.qualified(table.name)) \(alias) "
                + "ON \(alias)._pk = \(alias)_j.\(PostgresIdentifier.quoted(memberColumn)) "
                + "WHERE \(alias)_j.\(PostgresIdentifier.quoted(ownColumn)) = \(ownerKey)\(kinds)"
        case .references:
            preconditionFailure("A to-many relationship kept as references has no members in the schema.")
        }
    }
}

extension PostgresPredicateTranslator {
    /// The members of to-many `name` of `entity`; `nil` when it is not a stored to-many
    /// relationship whose members are in this store.
    func toManyMembers(_ name: String, of entity: EntitySchema) -> ToManyMembers? {
        guard let relationship = entity.relationshipsByName[name], relationship.isToMany,
            let destination = model.entitiesByName[relationship.destinationEntityName],
            let table = layout.tableOfEntity[destination.name],
            let storage = layout.toManyStorage(of: relationship, in: entity, model: model)
        else { return nil }
        if case .references = storage { return nil }
        let kinds = [destination.name] + destination.descendantNames
        return ToManyMembers(
            entity: destination, table: table, storage: storage,
            entityNumbers: Set(kinds) == Set(table.entities) ? nil : kinds.compactMap { layout.entityNumbers[$0] })
    }

    /// A new alias for a subquery's row.
    mutating func newAlias() -> String {
        aliasCount += 1
        return "m\(aliasCount)"
    }

    /// How many members the owner whose key `ownerKey` gives has, in SQL.
    mutating func count(of members: ToManyMembers, ownerKey: String) -> String {
        "(SELECT count(*) \(members.source(alias: newAlias(), ownerKey: ownerKey, layout: layout)))"
    }

    /// `@sum`, `@min` or `@max` of one attribute of `members` (`remainder` names the operator
    /// and the attribute, in either order), as SQL and the type of its value; `nil` where
    /// PostgreSQL's answer could differ from the evaluator's: sums of 64-bit integers (which
    /// the evaluator turns into decimals past `Int64`) and of anything but integers, averages
    /// (`numeric` division keeps fewer digits than a `Decimal`), and the least or greatest
    /// string (the evaluator orders strings as Swift does, not byte by byte). `@min` and `@max`
    /// of floating-point values and dates skip NaN, as the evaluator does.
    mutating func aggregate(of members: ToManyMembers, ownerKey: String, remainder: [String]) -> (
        sql: String, type: AttributeType
    )? {
        let operators = remainder.filter { $0.hasPrefix("@") }
        let keys = remainder.filter { !$0.hasPrefix("@") }
        guard operators.count == 1, keys.count == 1, let name = operators.first else { return nil }
        let alias = newAlias()
        guard
            case .attribute(let column, _, let type)? = follow(
                keys, from: members.entity, row: alias + ".", viaKey: nil)
        else { return nil }
        let source = members.source(alias: alias, ownerKey: ownerKey, layout: layout)
        switch (name, type) {
        case ("@sum", .integer16), ("@sum", .integer32):
            return ("(SELECT COALESCE(sum(\(column)), 0) \(source))", .integer64)
        case ("@min", .integer16), ("@min", .integer32), ("@min", .integer64), ("@max", .integer16),
            ("@max", .integer32), ("@max", .integer64):
            return ("(SELECT \(name.dropFirst())(\(column)) \(source))", type)
        case ("@min", .double), ("@min", .float), ("@min", .date), ("@max", .double), ("@max", .float),
            ("@max", .date):
            return ("(SELECT \(name.dropFirst())(\(column)) \(source) AND \(column) <> 'NaN')", type)
        default:
            return nil
        }
    }

    /// `ANY` or `ALL` of `members`, each followed by `remainder` and tested by `test`: an
    /// `EXISTS` of a member passing, or no member failing.
    mutating func quantified(
        _ modifier: ComparisonPredicate.Modifier, _ members: ToManyMembers, ownerKey: String, remainder: [String],
        test: (inout PostgresPredicateTranslator, Operand) -> String?
    ) -> String? {
        let alias = newAlias()
        let member: Operand? =
            remainder.isEmpty
            ? .object(
                key: "\(alias)._pk", entityNumber: members.entity.subentityNames.isEmpty ? nil : "\(alias)._ent",
                entityName: members.entity.name, plain: true)
            : follow(remainder, from: members.entity, row: alias + ".", viaKey: nil)
        guard let member, let condition = test(&self, member) else { return nil }
        let rows = "SELECT 1 \(members.source(alias: alias, ownerKey: ownerKey, layout: layout))"
        return modifier == .any ? "EXISTS (\(rows) AND (\(condition)))" : "NOT EXISTS (\(rows) AND NOT (\(condition)))"
    }

    /// `object IN collection` or `collection CONTAINS object`, where the collection is a
    /// to-many relationship: whether the object is a member. `nil` for any other comparison.
    mutating func membership(_ comparison: ComparisonPredicate) -> String? {
        guard comparison.modifier == .direct, comparison.options.isEmpty else { return nil }
        let (value, collection): (AttributeValue, FetchExpression)
        switch (comparison.operator, comparison.left, comparison.right) {
        case (.in, .constant(let constant), let expression) where ComparisonConstant(expression) == nil:
            (value, collection) = (constant, expression)
        case (.contains, let expression, .constant(let constant)):
            (value, collection) = (constant, expression)
        default: return nil
        }
        guard case .collection(let members, let ownerKey, let remainder)? = operand(collection), remainder.isEmpty
        else { return nil }
        return quantified(.any, members, ownerKey: ownerKey, remainder: []) { translator, member in
            guard case .object(let key, let entityNumber, let entityName, let plain) = member else { return nil }
            return translator.objectEquality(
                value, key: key, entityNumber: entityNumber, entityName: entityName, plain: plain)
        }
    }
}
