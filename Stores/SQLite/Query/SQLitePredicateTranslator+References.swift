import Strata

/// Relationships leading to another store's objects, whose URIs the store keeps
/// (docs/CROSS-STORE-RELATIONSHIPS.md): their values compare by ID (`city == %@`,
/// `city IN %@`, `ANY visits IN %@`, `%@ IN visits`), and `visits.@count` counts them. The
/// context never sends a key path that goes further.
extension SQLitePredicateTranslator {
    /// What `keys` name when their first, `relationship`, leads to another store's objects;
    /// `nil` when it does not, or when the key path goes on past a to-one.
    func reference(
        _ relationship: RelationshipDescription, owner: String, keys: [String], at scope: Scope
    ) -> Operand? {
        if relationship.isToMany {
            guard case .references(let table)? = layout.toManyStorage(of: relationship, in: scope.entity, model: model)
            else { return nil }
            return .references(table, ownerKey: primaryKey(at: scope), remainder: Array(keys.dropFirst()))
        }
        guard keys.count == 1,
            let index = layout.columnIndex(.reference(entity: owner, name: relationship.name), in: scope.table)
        else { return nil }
        return .reference(sql: column(scope.table.columns[index].name, at: scope))
    }

    /// Whether the object whose URI `column` holds meets `op` with `argument`: equal to an ID or
    /// null, or among a list of IDs. `nil` for other comparisons.
    mutating func referenceCondition(
        _ op: ComparisonPredicate.Operator, _ argument: Argument, column: String
    ) -> String? {
        switch (op, argument) {
        case (.equalTo, .value(.null)): return "\(column) IS NULL"
        case (.notEqualTo, .value(.null)): return "\(column) IS NOT NULL"
        case (.equalTo, .value(.objectID(let objectID))):
            return Self.twoValued("\(column) = \(bind(.text(objectID.uriString)))", operands: column)
        case (.notEqualTo, .value(.objectID(let objectID))):
            return "NOT " + Self.twoValued("\(column) = \(bind(.text(objectID.uriString)))", operands: column)
        case (.in, .list(let elements)):
            var uris: [SQLiteValue] = []
            for element in elements {
                guard case .objectID(let objectID) = element else { return nil }
                uris.append(.text(objectID.uriString))
            }
            guard !uris.isEmpty else { return "0" }
            let placeholders = uris.map { bind($0) }.joined(separator: ", ")
            return Self.twoValued("\(column) IN (\(placeholders))", operands: column)
        default: return nil
        }
    }

    /// `ANY` or `ALL` of the members of a to-many leading to another store's objects, each
    /// compared by ID; `nil` when the key path goes past the members.
    mutating func quantifiedReferences(
        _ modifier: ComparisonPredicate.Modifier, _ table: SQLiteSchema.ReferenceTable, ownerKey: String,
        remainder: [String], _ op: ComparisonPredicate.Operator, _ argument: Argument
    ) -> String? {
        guard remainder.isEmpty else { return nil }
        let alias = newAlias()
        guard let test = referenceCondition(op, argument, column: "\(alias).\(table.referenceColumn)") else {
            return nil
        }
        let rows = "SELECT 1 FROM \(table.name) \(alias) WHERE \(alias).\(table.ownerColumn) = \(ownerKey)"
        return modifier == .any ? "EXISTS (\(rows) AND (\(test)))" : "NOT EXISTS (\(rows) AND NOT (\(test)))"
    }

    /// `@count` of the members of a to-many leading to another store's objects; `nil` for
    /// another operator or a key path past the members.
    mutating func referenceCount(
        _ table: SQLiteSchema.ReferenceTable, ownerKey: String, remainder: [String]
    ) -> Operand? {
        guard remainder == ["@count"] else { return nil }
        let alias = newAlias()
        return .attribute(
            sql: "(SELECT count(*) FROM \(table.name) \(alias) WHERE \(alias).\(table.ownerColumn) = \(ownerKey))",
            type: .integer64)
    }

    /// Whether the object `value` is among the members of a to-many leading to another
    /// store's objects; `nil` when `value` is not an object ID.
    mutating func referenceMembership(
        _ value: AttributeValue, in table: SQLiteSchema.ReferenceTable, ownerKey: String
    ) -> String? {
        guard case .objectID(let objectID) = value else { return nil }
        let alias = newAlias()
        return "EXISTS (SELECT 1 FROM \(table.name) \(alias) WHERE \(alias).\(table.ownerColumn) = \(ownerKey) "
            + "AND \(alias).\(table.referenceColumn) = \(bind(.text(objectID.uriString))))"
    }
}
