import Foundation
import Strata

/// Translates predicates and sort descriptors on one entity's table (alias `t`) into SQL that
/// gives exactly the core evaluator's answers, with every constant a bound parameter, or
/// reports that it cannot (the store then evaluates that part with the core).
///
/// Every translated condition is two-valued (true or false, never NULL), so that `NOT` and
/// `OR` keep the evaluator's meaning for null values. What translates (docs/POSTGRES.md,
/// "Queries"): `==`, `!=`, `<`, `<=`, `>`, `>=`, `BETWEEN` and `IN` between an attribute, a
/// to-one relationship or `SELF` and constants of a matching kind, also through to-one key
/// paths; `BEGINSWITH`, `ENDSWITH` and `CONTAINS` on strings without `[c]` or `[d]`;
/// constants, `AND`, `OR` and `NOT`. Sorts translate on attributes of the entity compared
/// without options.
struct PostgresPredicateTranslator {
    let layout: PostgresLayout
    let model: ModelSchema
    let storeIdentifier: String
    /// The entity of the evaluated object: the fetched one, or a member inside a `SUBQUERY`.
    private(set) var entity: EntitySchema
    /// What precedes a column of the evaluated object's row: `t.`, nothing in an index's
    /// condition, or a member's alias inside a `SUBQUERY`.
    private(set) var rowPrefix: String
    /// The rows `SUBQUERY` variables name, by name without `$`: their entity and alias.
    private var variables: [String: (entity: EntitySchema, row: String)] = [:]
    /// The values bound to `$1`, `$2`, …, in order.
    private(set) var parameters: [PostgresValue]
    var aliasCount = 0
    /// Whether a comparison of `+`, `-`, `*` or `/` of numbers with a constant translates
    /// (``ExactArithmetic``): only where the caller, meeting the data exception the server raises
    /// where the evaluator's answer differs, evaluates in memory instead (a fetch, not an index).
    var translatesArithmetic = false
    /// Whether a translated condition computes arithmetic, so that running it may raise a data
    /// exception.
    private(set) var computesArithmetic = false

    /// Whether a translated condition reaches rows other than the entity's own (a to-one key
    /// path, through a subquery).
    var readsOtherRows: Bool { aliasCount > 0 }

    init(store: PostgresStore, entity: EntitySchema, parameters: [PostgresValue]) {
        self.init(
            layout: store.layout, model: store.model, storeIdentifier: store.identifier, entity: entity,
            parameters: parameters)
    }

    /// A translator for `entity`'s rows; `qualified` false writes their columns without the
    /// table's alias, as an index's condition names them.
    init(
        layout: PostgresLayout, model: ModelSchema, storeIdentifier: String, entity: EntitySchema,
        parameters: [PostgresValue] = [], qualified: Bool = true
    ) {
        self.layout = layout
        self.model = model
        self.storeIdentifier = storeIdentifier
        self.entity = entity
        self.parameters = parameters
        rowPrefix = qualified ? "t." : ""
    }

    /// What an expression names.
    enum Operand {
        /// A value: an attribute's column (or a subquery reaching it), whether it is a plain
        /// column, and its type.
        case attribute(sql: String, plain: Bool, type: AttributeType)
        /// An object: the SQL of its key and, when its entity can vary, of its entity number.
        case object(key: String, entityNumber: String?, entityName: String, plain: Bool)
        /// A to-one leading to another store's objects: the SQL of the column holding the
        /// object's URI, and whether it is a plain column.
        case reference(sql: String, plain: Bool)
        /// The members of a to-many relationship of the row whose key `ownerKey` gives,
        /// followed by the keys of `remainder` (`label`, `@count`).
        case collection(ToManyMembers, ownerKey: String, remainder: [String])
    }

    // MARK: Predicates

    /// The SQL condition for `predicate`; `nil`, binding nothing, when some part does not translate.
    mutating func condition(for predicate: FetchPredicate) -> String? {
        let saved = (parameters, aliasCount, computesArithmetic)
        let result = translate(predicate)
        if result == nil { (parameters, aliasCount, computesArithmetic) = saved }
        return result
    }

    private mutating func translate(_ predicate: FetchPredicate) -> String? {
        switch predicate {
        case .constant(let flag): return flag ? "true" : "false"
        case .and(let parts): return combine(parts, " AND ", empty: "true")
        case .or(let parts): return combine(parts, " OR ", empty: "false")
        case .not(let inner): return translate(inner).map { "NOT (\($0))" }
        case .comparison(let comparison): return translate(comparison)
        }
    }

    private mutating func combine(_ parts: [FetchPredicate], _ separator: String, empty: String) -> String? {
        var conditions: [String] = []
        for part in parts {
            guard let condition = translate(part) else { return nil }
            conditions.append("(\(condition))")
        }
        return conditions.isEmpty ? empty : conditions.joined(separator: separator)
    }

    private mutating func translate(_ comparison: ComparisonPredicate) -> String? {
        var (op, left, right) = (comparison.operator, comparison.left, comparison.right)
        if let membership = membership(comparison) { return membership }
        if case .constant = left, let flipped = op.withSidesSwapped { (left, right, op) = (right, left, flipped) }
        if case .function(let name, _) = left, Self.arithmeticOperators[name] != nil, translatesArithmetic,
            comparison.modifier == .direct
        {
            guard let argument = ComparisonConstant(right), let arithmetic = exactArithmetic(of: left) else {
                return nil
            }
            computesArithmetic = true
            return attributeCondition(
                op, argument, sql: arithmetic.sql, plain: false, type: arithmetic.isReal ? .double : .integer64,
                options: comparison.options)
        }
        guard let argument = ComparisonConstant(right), let operand = operand(left) else { return nil }
        switch (comparison.modifier, operand) {
        case (.direct, .collection(let members, let ownerKey, let remainder)):
            guard remainder == ["@count"] else {
                guard let (sql, type) = aggregate(of: members, ownerKey: ownerKey, remainder: remainder) else {
                    return nil
                }
                return attributeCondition(op, argument, sql: sql, plain: false, type: type, options: comparison.options)
            }
            return attributeCondition(
                op, argument, sql: count(of: members, ownerKey: ownerKey), plain: true, type: .integer64,
                options: comparison.options)
        case (.any, .collection(let members, let ownerKey, let remainder)),
            (.all, .collection(let members, let ownerKey, let remainder)):
            return quantified(
                comparison.modifier, members, ownerKey: ownerKey, remainder: remainder,
                test: { translator, member in
                    translator.condition(op, argument, on: member, options: comparison.options)
                })
        case (.direct, let scalar): return condition(op, argument, on: scalar, options: comparison.options)
        default: return nil
        }
    }

    /// The comparison of `operand`, a single value or object, with `argument`.
    mutating func condition(
        _ op: ComparisonPredicate.Operator, _ argument: Argument, on operand: Operand, options: StringComparisonOptions
    ) -> String? {
        switch operand {
        case .attribute(let sql, let plain, let type):
            return attributeCondition(op, argument, sql: sql, plain: plain, type: type, options: options)
        case .object(let key, let entityNumber, let entityName, let plain):
            guard options.isEmpty else { return nil }
            return objectCondition(
                op, argument, key: key, entityNumber: entityNumber, entityName: entityName, plain: plain)
        case .reference(let sql, let plain):
            guard options.isEmpty else { return nil }
            return referenceCondition(op, argument, sql: sql, plain: plain)
        case .collection: return nil
        }
    }

    /// The constant side of a comparison.
    typealias Argument = ComparisonConstant

    // MARK: Operands

    /// What `expression` names on the evaluated object; `nil` when it does not translate.
    mutating func operand(_ expression: FetchExpression) -> Operand? {
        switch expression {
        case .evaluatedObject, .keyPathOn(.evaluatedObject, "self"):
            return .object(
                key: rowPrefix + "_pk", entityNumber: rowPrefix + "_ent", entityName: entity.name, plain: true)
        case .keyPath(let path), .keyPathOn(.evaluatedObject, let path):
            return follow(path.split(separator: ".").map(String.init), from: entity, row: rowPrefix, viaKey: nil)
        case .keyPathOn(.variable(let name), let path):
            guard let bound = variables[Self.variableKey(name)] else { return nil }
            return follow(path.split(separator: ".").map(String.init), from: bound.entity, row: bound.row, viaKey: nil)
        case .variable(let name):
            guard let bound = variables[Self.variableKey(name)] else { return nil }
            return .object(
                key: bound.row + "_pk", entityNumber: bound.entity.subentityNames.isEmpty ? nil : bound.row + "_ent",
                entityName: bound.entity.name, plain: true)
        case .keyPathOn(.subquery(let collection, let variable, let predicate), "@count"):
            return subqueryCount(collection, variable: variable, predicate: predicate)
        case .function("indexed:by:", let arguments) where arguments.count == 2:
            // The store's spatial planning reads the index's name; the comparison is the attribute's.
            guard case .constant(.string) = arguments[1] else { return nil }
            return operand(arguments[0])
        case .function(let name, let arguments) where (name == "noindex:" || name == "noindex") && arguments.count == 1:
            // PostgreSQL takes no hint per condition: the comparison is the attribute's.
            return operand(arguments[0])
        default: return nil
        }
    }

    /// A variable's name without its `$`.
    static func variableKey(_ name: String) -> String { name.hasPrefix("$") ? String(name.dropFirst()) : name }

    /// `SUBQUERY(collection, $variable, predicate).@count`: how many members of a to-many of
    /// the evaluated object match `predicate`, in which the variable and the evaluated object
    /// are the member; `nil` when the collection or the predicate does not translate.
    private mutating func subqueryCount(_ collection: FetchExpression, variable: String, predicate: FetchPredicate)
        -> Operand?
    {
        guard case .collection(let members, let ownerKey, let remainder)? = operand(collection), remainder.isEmpty
        else { return nil }
        let alias = newAlias()
        let outer = (entity, rowPrefix, variables)
        (entity, rowPrefix) = (members.entity, alias + ".")
        variables[Self.variableKey(variable)] = (members.entity, alias + ".")
        let condition = translate(predicate)
        (entity, rowPrefix, variables) = outer
        guard let condition else { return nil }
        let source = members.source(alias: alias, ownerKey: ownerKey, layout: layout)
        return .attribute(sql: "(SELECT count(*) \(source) AND (\(condition)))", plain: true, type: .integer64)
    }

    /// The operand `keys` name from `entity`, whose row's columns `row` qualifies (`t.`), or
    /// when `viaKey` is given, the row of the entity's table whose key that SQL gives. A to-many
    /// relationship is a collection only on a row of its own: reached through a to-one, it
    /// does not translate (the evaluator's answer for a missing object differs from SQL's).
    mutating func follow(_ keys: [String], from entity: EntitySchema, row: String, viaKey: String?)
        -> Operand?
    {
        guard let first = keys.first, let table = layout.tableOfEntity[entity.name] else { return nil }
        func column(_ name: String) -> String {
            guard let viaKey else { return row + PostgresIdentifier.quoted(name) }
            aliasCount += 1
            let alias = "d\(aliasCount)"
            return "(SELECT \(alias).\(PostgresIdentifier.quoted(name)) FROM \(layout.qualified(table.name)) \(alias) "
                + "WHERE \(alias)._pk = \(viaKey))"
        }
        if let leaf = entity.compositeLeaf(startingWith: keys), leaf.keyCount == keys.count,
            let attribute = entity.attributesByName[leaf.name], !attribute.isTransient,
            let name = layout.columnName(of: leaf.name, entity: entity.name, model: model)
        {
            return .attribute(sql: column(name), plain: viaKey == nil, type: attribute.type)
        }
        if let attribute = entity.attributesByName[first], keys.count == 1, !attribute.isTransient,
            attribute.type != .composite, let name = layout.columnName(of: first, entity: entity.name, model: model)
        {
            return .attribute(sql: column(name), plain: viaKey == nil, type: attribute.type)
        }
        if keys.count == 1, let name = layout.referenceColumnName(of: first, entity: entity.name, model: model) {
            return .reference(sql: column(name), plain: viaKey == nil)
        }
        if viaKey == nil, let members = toManyMembers(first, of: entity) {
            return .collection(members, ownerKey: row + "_pk", remainder: Array(keys.dropFirst()))
        }
        guard let relationship = entity.relationshipsByName[first], !relationship.isToMany, !relationship.isTransient,
            let destination = model.entitiesByName[relationship.destinationEntityName],
            let name = layout.columnName(of: first, entity: entity.name, model: model)
        else { return nil }
        let key = column(name)
        if keys.count == 1 {
            guard !destination.subentityNames.isEmpty else {
                return .object(key: key, entityNumber: nil, entityName: destination.name, plain: viaKey == nil)
            }
            guard let entityColumn = layout.entityColumnName(ofToOne: first, entity: entity.name, model: model) else {
                return nil
            }
            return .object(
                key: key, entityNumber: column(entityColumn), entityName: destination.name, plain: viaKey == nil)
        }
        return follow(Array(keys.dropFirst()), from: destination, row: row, viaKey: key)
    }

    // MARK: Conditions

    /// Binds `value` to the next parameter and returns its placeholder (`$3`).
    mutating func bind(_ value: PostgresValue) -> String {
        parameters.append(value)
        return "$\(parameters.count)"
    }

    /// `test`, which compares `operand` with bound values that are not null, made two-valued:
    /// false where the operand is null. A plain column gets `IS NOT NULL`, through which an
    /// index still serves; anything else `COALESCE`.
    private static func twoValued(_ test: String, _ operand: String, plain: Bool) -> String {
        plain ? "(\(test) AND \(operand) IS NOT NULL)" : "COALESCE(\(test), false)"
    }

    mutating func objectCondition(
        _ op: ComparisonPredicate.Operator, _ argument: Argument, key: String, entityNumber: String?,
        entityName: String, plain: Bool
    ) -> String? {
        switch (op, argument) {
        case (.equalTo, .value(let value)):
            return objectEquality(value, key: key, entityNumber: entityNumber, entityName: entityName, plain: plain)
        case (.notEqualTo, .value(let value)):
            return objectEquality(value, key: key, entityNumber: entityNumber, entityName: entityName, plain: plain)
                .map { "NOT (\($0))" }
        case (.in, .list(let elements)):
            var conditions: [String] = []
            for element in elements {
                guard
                    let condition = objectEquality(
                        element, key: key, entityNumber: entityNumber, entityName: entityName, plain: plain)
                else { return nil }
                conditions.append("(\(condition))")
            }
            return conditions.isEmpty ? "false" : conditions.joined(separator: " OR ")
        default: return nil
        }
    }

    /// Whether the object of another store whose URI `sql` holds is equal to an ID or null, or
    /// among a list of IDs; `nil` for other comparisons.
    private mutating func referenceCondition(
        _ op: ComparisonPredicate.Operator, _ argument: Argument, sql: String, plain: Bool
    )
        -> String?
    {
        switch (op, argument) {
        case (.equalTo, .value(.null)): return "\(sql) IS NULL"
        case (.notEqualTo, .value(.null)): return "\(sql) IS NOT NULL"
        case (.equalTo, .value(.objectID(let objectID))):
            return Self.twoValued("\(sql) = \(bind(.text(objectID.uriString)))", sql, plain: plain)
        case (.notEqualTo, .value(.objectID(let objectID))):
            return "NOT " + Self.twoValued("\(sql) = \(bind(.text(objectID.uriString)))", sql, plain: plain)
        case (.in, .list(let elements)):
            var uris: [String] = []
            for element in elements {
                guard case .objectID(let objectID) = element else { return nil }
                uris.append(objectID.uriString)
            }
            guard !uris.isEmpty else { return "false" }
            return Self.twoValued("\(sql) = ANY(\(bind(.textArray(uris)))::text[])", sql, plain: plain)
        default: return nil
        }
    }

    mutating func objectEquality(
        _ constant: AttributeValue, key: String, entityNumber: String?, entityName: String, plain: Bool
    ) -> String? {
        switch constant {
        case .null: return "\(key) IS NULL"
        case .objectID(let objectID):
            guard objectID.storeIdentifier == storeIdentifier, case .integer(let primaryKey) = objectID.reference,
                let number = layout.entityNumbers[objectID.entityName]
            else { return "false" }
            guard let entityNumber else {
                guard objectID.entityName == entityName else { return "false" }
                return Self.twoValued("\(key) = \(bind(.bigint(primaryKey)))", key, plain: plain)
            }
            let test = "\(key) = \(bind(.bigint(primaryKey))) AND \(entityNumber) = \(bind(.smallint(number)))"
            return plain ? "(\(test) AND \(key) IS NOT NULL)" : "COALESCE(\(test), false)"
        default: return nil
        }
    }

    mutating func attributeCondition(
        _ op: ComparisonPredicate.Operator, _ argument: Argument, sql: String, plain: Bool, type: AttributeType,
        options: StringComparisonOptions
    ) -> String? {
        guard options.isEmpty else { return nil }
        switch (op, argument) {
        case (.equalTo, .value(let value)):
            return equality(value, sql: sql, plain: plain, type: type)
        case (.notEqualTo, .value(let value)):
            return equality(value, sql: sql, plain: plain, type: type).map { "NOT (\($0))" }
        case (.lessThan, .value(let value)), (.lessThanOrEqualTo, .value(let value)),
            (.greaterThan, .value(let value)), (.greaterThanOrEqualTo, .value(let value)):
            if value.isNull { return "false" }
            guard Self.isOrdered(type), let bound = Self.bindable(value, as: type) else { return nil }
            let sqlOperator = op.rawValue == "==" ? "=" : op.rawValue
            return Self.twoValued(
                "\(sql) \(sqlOperator) \(bind(bound))\(Self.notNaN(sql, type))", sql, plain: plain)
        case (.between, .list(let bounds)):
            guard bounds.count == 2, Self.isOrdered(type) else { return nil }
            if bounds.contains(where: \.isNull) { return "false" }
            guard let low = Self.bindable(bounds[0], as: type), let high = Self.bindable(bounds[1], as: type) else {
                return nil
            }
            return Self.twoValued(
                "\(sql) BETWEEN \(bind(low)) AND \(bind(high))\(Self.notNaN(sql, type))", sql, plain: plain)
        case (.in, .list(let elements)):
            var conditions: [String] = []
            for element in elements {
                guard let condition = equality(element, sql: sql, plain: plain, type: type) else { return nil }
                conditions.append("(\(condition))")
            }
            return conditions.isEmpty ? "false" : conditions.joined(separator: " OR ")
        case (.beginsWith, .value(let value)), (.endsWith, .value(let value)), (.contains, .value(let value)):
            guard type == .string else { return nil }
            if value.isNull { return "false" }
            guard case .string(let text) = value else { return nil }
            let escaped = Self.likeEscaped(text)
            let pattern =
                op == .beginsWith ? escaped + "%" : op == .endsWith ? "%" + escaped : "%" + escaped + "%"
            return Self.twoValued("\(sql) LIKE \(bind(.bytes(Array(pattern.utf8))))", sql, plain: plain)
        default: return nil
        }
    }

    private mutating func equality(_ constant: AttributeValue, sql: String, plain: Bool, type: AttributeType)
        -> String?
    {
        if constant.isNull { return "\(sql) IS NULL" }
        guard let value = Self.bindable(constant, as: type) else { return nil }
        return Self.twoValued("\(sql) = \(bind(value))", sql, plain: plain)
    }

    /// Types whose SQL order is the evaluator's order.
    private static func isOrdered(_ type: AttributeType) -> Bool {
        switch type {
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .date, .string, .binary, .uuid, .uri:
            true
        default: false
        }
    }

    /// PostgreSQL orders NaN above every number; the evaluator orders it with nothing.
    private static func notNaN(_ sql: String, _ type: AttributeType) -> String {
        switch type {
        case .double, .float, .date: " AND \(sql) <> 'NaN'::float8"
        case .decimal: " AND \(sql) <> 'NaN'::numeric"
        default: ""
        }
    }

    /// `text` with the characters `LIKE` treats specially escaped by a backslash.
    private static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// `constant` as a value of a column of `type`, when SQL compares the two exactly as the
    /// evaluator compares them; `nil` otherwise (the comparison is then left to the core).
    private static func bindable(_ constant: AttributeValue, as type: AttributeType) -> PostgresValue? {
        switch (type, constant) {
        case (.integer16, _), (.integer32, _), (.integer64, _):
            guard let whole = exactInteger(constant) else { return nil }
            return .bigint(whole)
        case (.boolean, .boolean(let flag)): return .boolean(flag)
        case (.boolean, _):
            guard let whole = exactInteger(constant), whole == 0 || whole == 1 else { return nil }
            return .boolean(whole == 1)
        case (.double, _), (.float, _):
            switch constant {
            case .double(let n) where !n.isNaN: return .double(n)
            case .float(let n) where !n.isNaN: return .double(Double(n))
            default:
                guard let whole = exactInteger(constant), abs(whole) <= 1 << 53 else { return nil }
                return .double(Double(whole))
            }
        case (.decimal, .decimal(let n)) where !n.isNaN: return .numeric(n.description)
        case (.decimal, _):
            guard let whole = exactInteger(constant) else { return nil }
            return .numeric(String(whole))
        case (.date, .date(let date)):
            let seconds = date.timeIntervalSinceReferenceDate
            return seconds.isNaN ? nil : .double(seconds)
        case (.string, .string), (.uri, .uri), (.binary, .binary), (.transformable, .binary), (.uuid, .uuid):
            return PostgresValueCodec.encode(constant)
        default: return nil
        }
    }

    /// An integer or boolean constant as an integer.
    private static func exactInteger(_ value: AttributeValue) -> Int64? {
        switch value {
        case .integer16(let n): Int64(n)
        case .integer32(let n): Int64(n)
        case .integer64(let n): n
        case .boolean(let flag): flag ? 1 : 0
        default: nil
        }
    }

    // MARK: Sorts

    /// The `ORDER BY` terms for `descriptors`, ending with the primary key; `nil` when one
    /// does not translate.
    func orderBy(_ descriptors: [FetchSortDescriptor]) -> String? {
        var terms: [String] = []
        for descriptor in descriptors {
            guard descriptor.comparison == .binary, let attribute = entity.attributesByName[descriptor.keyPath],
                !attribute.isTransient, Self.isOrdered(attribute.type) || attribute.type == .boolean,
                let name = layout.columnName(of: descriptor.keyPath, entity: entity.name, model: model)
            else { return nil }
            let column = "t.\(PostgresIdentifier.quoted(name))"
            let direction = descriptor.ascending ? "ASC" : "DESC"
            let firsts = descriptor.ascending ? "DESC" : "ASC"
            terms.append("(\(column) IS NULL) \(firsts)")
            switch attribute.type {
            case .double, .float, .date: terms.append("(\(column) = 'NaN'::float8) \(firsts)")
            case .decimal: terms.append("(\(column) = 'NaN'::numeric) \(firsts)")
            default: break
            }
            terms.append("\(column) \(direction)")
        }
        return (terms + ["t._pk ASC"]).joined(separator: ", ")
    }
}
