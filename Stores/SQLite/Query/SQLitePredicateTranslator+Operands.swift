import Strata

extension SQLitePredicateTranslator {
    /// Where an object sits in a query: a row of the query's tables under `alias`, or the row
    /// whose primary key the SQL expression `key` gives.
    enum Position {
        case row(alias: String)
        case lookup(key: String)
    }

    /// An object a key path starts from or passes through.
    struct Scope {
        let position: Position
        let entity: EntitySchema
        let table: SQLiteSchema.EntityTable
    }

    /// The objects key paths are read from: the evaluated object and `SUBQUERY` variables.
    struct Context {
        var object: Scope
        var bindings: [String: Scope] = [:]
    }

    /// The members of a to-many relationship, as rows of `table` that `membership` selects.
    struct Members {
        let entity: EntitySchema
        let table: SQLiteSchema.EntityTable
        /// The condition that a row under an alias is a member.
        let membership: (String) -> String
    }

    /// What an expression names.
    enum Operand {
        /// A value: an attribute (`sql` gives its stored form) or an aggregate.
        case attribute(sql: String, type: AttributeType)
        /// An object: the SQL of its primary key and, when the entity can vary, of its entity
        /// number; otherwise the one entity it has.
        case object(key: String, entityNumber: String?, entityName: String)
        /// The members of a to-many relationship, and the key path still to follow in each.
        case collection(Members, remainder: [String])
        /// A to-one leading to another store's objects: the SQL of the column holding its URI.
        case reference(sql: String)
        /// The members of a to-many leading to another store's objects: the table of their
        /// URIs, the SQL of the owner's key, and the key path after the relationship.
        case references(SQLiteSchema.ReferenceTable, ownerKey: String, remainder: [String])
    }

    /// What `expression` names in `context`; `nil` when it does not translate.
    mutating func operand(_ expression: FetchExpression, in context: Context) -> Operand? {
        switch expression {
        case .evaluatedObject: return object(at: context.object)
        case .variable(let name):
            return context.bindings[Self.variableKey(name)].flatMap { object(at: $0) }
        case .keyPath(let path): return follow(path.split(separator: ".").map(String.init), from: context.object)
        case .keyPathOn(.variable(let name), let path):
            guard let scope = context.bindings[Self.variableKey(name)] else { return nil }
            return follow(path.split(separator: ".").map(String.init), from: scope)
        case .keyPathOn(.evaluatedObject, let path):
            return follow(path.split(separator: ".").map(String.init), from: context.object)
        case .keyPathOn(.subquery(let collection, let variable, let predicate), "@count"):
            return subqueryCount(collection, variable: variable, predicate: predicate, in: context)
        case .function(let name, let arguments) where (name == "noindex:" || name == "noindex") && arguments.count == 1:
            // SQLite searches no index for a column under a unary `+`, which changes no value.
            guard case .attribute(let sql, let type)? = operand(arguments[0], in: context) else { return nil }
            return .attribute(sql: "+" + sql, type: type)
        case .function("indexed:by:", let arguments) where arguments.count == 2:
            // The store's R-tree planning reads the index's name; the comparison is the attribute's.
            guard case .constant(.string) = arguments[1] else { return nil }
            return operand(arguments[0], in: context)
        default: return nil
        }
    }

    static func variableKey(_ name: String) -> String { name.hasPrefix("$") ? String(name.dropFirst()) : name }

    private func object(at scope: Scope) -> Operand {
        let needsNumber = scope.table.entities.count > 1
        switch scope.position {
        case .row(let alias):
            return .object(
                key: "\(alias).Z_PK", entityNumber: needsNumber ? "\(alias).Z_ENT" : nil, entityName: scope.entity.name)
        case .lookup(let key):
            return .object(
                key: key, entityNumber: needsNumber ? column("Z_ENT", at: scope) : nil, entityName: scope.entity.name)
        }
    }

    /// The SQL of the primary key of the object at `scope`.
    func primaryKey(at scope: Scope) -> String {
        switch scope.position {
        case .row(let alias): "\(alias).Z_PK"
        case .lookup(let key): key
        }
    }

    /// The SQL of column `name` of the object at `scope`.
    func column(_ name: String, at scope: Scope) -> String {
        switch scope.position {
        case .row(let alias): return "\(alias).\(name)"
        case .lookup(let key):
            return "(SELECT l.\(name) FROM \(scope.table.name) l WHERE l.Z_PK = \(key))"
        }
    }

    /// Follows `keys` from the object at `scope`.
    private mutating func follow(_ keys: [String], from scope: Scope) -> Operand? {
        guard let key = keys.first else { return object(at: scope) }
        let entity = scope.entity
        if let leaf = entity.compositeLeaf(startingWith: keys), leaf.keyCount == keys.count {
            return follow([leaf.name], from: scope)
        }
        if let attribute = entity.attributesByName[key], !attribute.isTransient, keys.count == 1 {
            // A column of external binary data holds a marker and maybe a file name, not the value.
            guard !attribute.storesExternally else { return nil }
            let owner = layout.declaringEntity(of: key, in: entity, model: model)
            guard let index = layout.columnIndex(.attribute(entity: owner, name: key), in: scope.table) else {
                return nil
            }
            return .attribute(sql: column(scope.table.columns[index].name, at: scope), type: attribute.type)
        }
        guard let relationship = entity.relationshipsByName[key], !relationship.isTransient else { return nil }
        let owner = layout.declaringEntity(of: key, in: entity, model: model)
        if let reference = reference(relationship, owner: owner, keys: keys, at: scope) { return reference }
        guard let destination = model.entitiesByName[relationship.destinationEntityName],
            let destinationTable = layout.tableOfEntity[destination.name]
        else { return nil }
        if relationship.isToMany {
            guard let storage = layout.toManyStorage(of: relationship, in: entity, model: model) else {
                return nil
            }
            let ownerKey = primaryKey(at: scope)
            let membership: (String) -> String
            switch storage {
            case .foreignKey(_, let column, _, _):
                membership = { "\($0).\(column) = \(ownerKey)" }
            case .joinTable(let name, let ownColumn, let memberColumn, _, _):
                membership = { "\($0).Z_PK IN (SELECT \(memberColumn) FROM \(name) WHERE \(ownColumn) = \(ownerKey))" }
            case .references: return nil
            }
            return .collection(
                Members(entity: destination, table: destinationTable, membership: membership),
                remainder: Array(keys.dropFirst()))
        }
        guard let index = layout.columnIndex(.toOne(entity: owner, name: key), in: scope.table) else { return nil }
        let keySQL = column(scope.table.columns[index].name, at: scope)
        if keys.count == 1 {
            let entityIndex = layout.columnIndex(.toOneEntity(entity: owner, name: key), in: scope.table)
            return .object(
                key: keySQL, entityNumber: entityIndex.map { column(scope.table.columns[$0].name, at: scope) },
                entityName: destination.name)
        }
        return follow(
            Array(keys.dropFirst()),
            from: Scope(position: .lookup(key: keySQL), entity: destination, table: destinationTable))
    }

    /// A fresh alias for a subquery's table.
    mutating func newAlias() -> String {
        aliasCount += 1
        return "t\(aliasCount)"
    }

    /// `SUBQUERY(collection, $variable, predicate).@count`.
    private mutating func subqueryCount(
        _ collection: FetchExpression, variable: String, predicate: FetchPredicate, in context: Context
    ) -> Operand? {
        guard case .collection(let members, let remainder)? = operand(collection, in: context), remainder.isEmpty
        else { return nil }
        let alias = newAlias()
        var inner = context
        let scope = Scope(position: .row(alias: alias), entity: members.entity, table: members.table)
        inner.object = scope
        inner.bindings[Self.variableKey(variable)] = scope
        guard let condition = translate(predicate, in: inner) else { return nil }
        return .attribute(
            sql:
                "(SELECT count(*) FROM \(members.table.name) \(alias) WHERE \(members.membership(alias)) AND (\(condition)))",
            type: .integer64)
    }

    /// An aggregate over `members` (`@count`, `@sum`, `@min`, `@max`, …) followed by `remainder`;
    /// `nil` when it does not give the evaluator's exact answer in SQL.
    mutating func aggregate(_ members: Members, remainder: [String], in context: Context) -> Operand? {
        let alias = newAlias()
        let from = "FROM \(members.table.name) \(alias) WHERE \(members.membership(alias))"
        if remainder == ["@count"] { return .attribute(sql: "(SELECT count(*) \(from))", type: .integer64) }
        let operators = remainder.filter { $0.hasPrefix("@") }
        let keys = remainder.filter { !$0.hasPrefix("@") }
        guard operators.count == 1, keys.count == 1, let name = operators.first else { return nil }
        let scope = Scope(position: .row(alias: alias), entity: members.entity, table: members.table)
        guard case .attribute(let sql, let type)? = follow(keys, from: scope), let family = Self.family(of: type) else {
            return nil
        }
        switch (name, family) {
        case ("@count", _): return .attribute(sql: "(SELECT count(*) \(from))", type: .integer64)
        case ("@sum", .number) where type != .integer64:
            return .attribute(sql: "(SELECT COALESCE(sum(\(sql)), 0) \(from))", type: .integer64)
        case ("@min", .number), ("@max", .number), ("@min", .text), ("@max", .text):
            return .attribute(sql: "(SELECT \(name.dropFirst())(\(sql)) \(from))", type: type)
        case ("@min", .real), ("@max", .real), ("@min", .date), ("@max", .date):
            let real = "\(SQLiteStrataFunctions.real)(\(sql))"
            return .attribute(sql: "(SELECT \(name.dropFirst())(\(real)) \(from))", type: type)
        default: return nil
        }
    }
}
