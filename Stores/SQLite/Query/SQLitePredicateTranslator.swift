import Foundation
import Strata

/// Translates predicates and sort descriptors on one entity's table (alias `t0`) into SQL
/// that gives exactly the in-memory evaluator's answers, or reports that it cannot.
///
/// Every translated condition is two-valued (0 or 1, never NULL), so `NOT` and `OR` keep the
/// evaluator's meaning for null values. What translates is listed in docs/SQLITE.md
/// ("Predicates"): comparisons, `BETWEEN` and `IN` of attributes, to-one relationships and
/// `SELF` with constants of a matching kind, also through to-one key paths; the string
/// operators with `[c]` and `[d]` through Strata's SQL functions; `ANY`, `ALL` and `NONE`
/// over to-many relationships, membership of an object in one, `@count`, `@min`, `@max` and
/// `@sum` of integers, and `SUBQUERY(…).@count`; constants, `AND`, `OR` and `NOT`.
struct SQLitePredicateTranslator {
    /// The layout, model and store identifier the SQL is written for.
    let layout: SQLiteSchema
    let model: ModelSchema
    let storeIdentifier: String
    let root: Context
    /// The values bound to the `?` parameters, in order.
    private(set) var parameters: [SQLiteValue] = []
    /// What the translated SQL evaluates row by row with `strata_evaluate`.
    let rowEvaluations = SQLiteRowEvaluations()
    var aliasCount = 0

    init(store: SQLiteStore, entity: EntitySchema, table: SQLiteSchema.EntityTable) {
        self.init(
            layout: store.layout, model: store.model, storeIdentifier: store.identifier, entity: entity, table: table)
    }

    /// A translator for `layout` before any store has it open: what a partial index's
    /// condition is written with.
    init(
        layout: SQLiteSchema, model: ModelSchema, storeIdentifier: String, entity: EntitySchema,
        table: SQLiteSchema.EntityTable
    ) {
        self.layout = layout
        self.model = model
        self.storeIdentifier = storeIdentifier
        self.root = Context(object: Scope(position: .row(alias: "t0"), entity: entity, table: table))
    }

    /// The constant side of a comparison.
    typealias Argument = ComparisonConstant

    /// The kinds of value that compare with each other in SQL as the evaluator compares them.
    enum Family: Equatable {
        case number, real, text, date, bytes, url
    }

    // MARK: Predicates

    /// Binds `value` to a new parameter and returns its placeholder.
    mutating func bind(_ value: SQLiteValue) -> String {
        parameters.append(value)
        return "?"
    }

    /// Binds the parameters from `start` on once more, for SQL that repeats the conditions
    /// they belong to.
    mutating func bindAgain(from start: Int) {
        parameters += parameters[start...]
    }

    /// The SQL condition for `predicate`; `nil` when some part does not translate.
    mutating func condition(for predicate: FetchPredicate) -> String? {
        let saved = (parameters, aliasCount)
        let result = translate(predicate, in: root)
        if result == nil { (parameters, aliasCount) = saved }
        return result
    }

    mutating func translate(_ predicate: FetchPredicate, in context: Context) -> String? {
        switch predicate {
        case .constant(let flag): return flag ? "1" : "0"
        case .and(let parts): return combine(parts, with: " AND ", empty: "1", in: context)
        case .or(let parts): return combine(parts, with: " OR ", empty: "0", in: context)
        case .not(let inner): return translate(inner, in: context).map { "NOT (\($0))" }
        case .comparison(let comparison): return translate(comparison, in: context)
        }
    }

    private mutating func combine(
        _ parts: [FetchPredicate], with separator: String, empty: String, in context: Context
    ) -> String? {
        var conditions: [String] = []
        for part in parts {
            guard let condition = translate(part, in: context) else { return nil }
            conditions.append("(\(condition))")
        }
        return conditions.isEmpty ? empty : conditions.joined(separator: separator)
    }

    private mutating func translate(_ comparison: ComparisonPredicate, in context: Context) -> String? {
        var op = comparison.operator
        var (left, right) = (comparison.left, comparison.right)
        if case .constant(let value) = left, op == .in, !Self.isConstant(right) {
            return membership(value, in: right, in: context)
        }
        if op == .contains, Self.isConstant(right), case .constant(let value) = right,
            let collection = operand(left, in: context), Self.isCollection(collection)
        {
            guard comparison.modifier == .direct else { return nil }
            return membership(value, in: left, in: context)
        }
        if case .constant = left, let flipped = op.withSidesSwapped { (left, right, op) = (right, left, flipped) }
        guard let argument = ComparisonConstant(right), let resolved = operand(left, in: context) else { return nil }
        switch (comparison.modifier, resolved) {
        case (.direct, .collection(let members, let remainder)):
            guard case .attribute(let sql, let type)? = aggregate(members, remainder: remainder, in: context) else {
                return nil
            }
            return attributeCondition(op, argument, column: sql, type: type, options: comparison.options)
        case (.direct, .references(let table, let ownerKey, let remainder)):
            guard case .attribute(let sql, let type)? = referenceCount(table, ownerKey: ownerKey, remainder: remainder)
            else { return nil }
            return attributeCondition(op, argument, column: sql, type: type, options: comparison.options)
        case (.any, .references(let table, let ownerKey, let remainder)),
            (.all, .references(let table, let ownerKey, let remainder)):
            guard comparison.options.isEmpty else { return nil }
            return quantifiedReferences(
                comparison.modifier, table, ownerKey: ownerKey, remainder: remainder, op, argument)
        case (.direct, let scalar):
            return condition(op, argument, on: scalar, options: comparison.options)
        case (.any, .collection(let members, let remainder)), (.all, .collection(let members, let remainder)):
            let alias = newAlias()
            let member = Scope(position: .row(alias: alias), entity: members.entity, table: members.table)
            var inner = context
            inner.object = member
            let path: FetchExpression =
                remainder.isEmpty ? .evaluatedObject : .keyPath(remainder.joined(separator: "."))
            guard case let resolvedMember? = operand(path, in: inner), !Self.isCollection(resolvedMember),
                let test = condition(op, argument, on: resolvedMember, options: comparison.options)
            else { return nil }
            let rows = "SELECT 1 FROM \(members.table.name) \(alias) WHERE \(members.membership(alias))"
            return comparison.modifier == .any
                ? "EXISTS (\(rows) AND (\(test)))" : "NOT EXISTS (\(rows) AND NOT (\(test)))"
        default: return nil
        }
    }

    private mutating func condition(
        _ op: ComparisonPredicate.Operator, _ argument: Argument, on operand: Operand, options: StringComparisonOptions
    ) -> String? {
        switch operand {
        case .object(let key, let entityNumber, let entityName):
            guard options.isEmpty else { return nil }
            return objectCondition(op, argument, key: key, entityNumber: entityNumber, entityName: entityName)
        case .attribute(let sql, let type):
            return attributeCondition(op, argument, column: sql, type: type, options: options)
        case .reference(let sql):
            guard options.isEmpty else { return nil }
            return referenceCondition(op, argument, column: sql)
        case .collection, .references: return nil
        }
    }

    /// `object IN collection` (or `collection CONTAINS object`): whether the object is a member.
    private mutating func membership(_ value: AttributeValue, in expression: FetchExpression, in context: Context)
        -> String?
    {
        let collection = operand(expression, in: context)
        if case .references(let table, let ownerKey, let remainder)? = collection {
            guard remainder.isEmpty else { return nil }
            return referenceMembership(value, in: table, ownerKey: ownerKey)
        }
        guard case .collection(let members, let remainder)? = collection, remainder.isEmpty else { return nil }
        let alias = newAlias()
        guard
            let equality = objectEquality(
                value, key: "\(alias).Z_PK", entityNumber: "\(alias).Z_ENT", entityName: members.entity.name)
        else { return nil }
        return
            "EXISTS (SELECT 1 FROM \(members.table.name) \(alias) WHERE \(members.membership(alias)) AND \(equality))"
    }

    private static func isConstant(_ expression: FetchExpression) -> Bool {
        ComparisonConstant(expression) != nil
    }

    private static func isCollection(_ operand: Operand) -> Bool {
        switch operand {
        case .collection, .references: true
        case .attribute, .object, .reference: false
        }
    }

    // MARK: Object comparisons

    private mutating func objectCondition(
        _ op: ComparisonPredicate.Operator, _ argument: Argument, key: String, entityNumber: String?,
        entityName: String
    ) -> String? {
        switch (op, argument) {
        case (.equalTo, .value(let value)):
            return objectEquality(value, key: key, entityNumber: entityNumber, entityName: entityName)
        case (.notEqualTo, .value(let value)):
            return objectEquality(value, key: key, entityNumber: entityNumber, entityName: entityName)
                .map { "NOT (\($0))" }
        case (.in, .list(let elements)):
            if entityNumber == nil, let condition = keyList(elements, key: key, entityName: entityName) {
                return condition
            }
            var conditions: [String] = []
            for element in elements {
                guard
                    let condition = objectEquality(
                        element, key: key, entityNumber: entityNumber, entityName: entityName)
                else { return nil }
                conditions.append("(\(condition))")
            }
            return conditions.isEmpty ? "0" : conditions.joined(separator: " OR ")
        default: return nil
        }
    }

    /// Whether the key the SQL gives, of an object of `entityName`, is one of the object IDs
    /// `elements`, as one `IN` list of primary keys (which SQLite searches by the key's index)
    /// rather than one equality per ID; `nil` when an element is not an object ID. IDs of other
    /// stores or entities match nothing.
    private mutating func keyList(_ elements: [AttributeValue], key: String, entityName: String) -> String? {
        var keys: [Int64] = []
        for element in elements {
            guard case .objectID(let objectID) = element else { return nil }
            if objectID.storeIdentifier == storeIdentifier, objectID.entityName == entityName,
                case .integer(let primaryKey) = objectID.reference
            {
                keys.append(primaryKey)
            }
        }
        guard !keys.isEmpty else { return "0" }
        parameters += keys.map { .integer($0) }
        let placeholders = Array(repeating: "?", count: keys.count).joined(separator: ", ")
        return Self.twoValued("\(key) IN (\(placeholders))", operands: key)
    }

    /// Whether the object whose key and entity number the SQL gives is `constant` (an object ID
    /// or null). Without an entity number, the object's entity is `entityName`.
    private mutating func objectEquality(
        _ constant: AttributeValue, key: String, entityNumber: String?, entityName: String
    ) -> String? {
        switch constant {
        case .null: return "\(key) IS NULL"
        case .objectID(let objectID):
            guard objectID.storeIdentifier == storeIdentifier, case .integer(let primaryKey) = objectID.reference,
                let number = layout.entityNumbers[objectID.entityName]
            else { return "0" }
            guard let entityNumber else {
                guard objectID.entityName == entityName else { return "0" }
                parameters.append(.integer(primaryKey))
                return Self.twoValued("\(key) = ?", operands: key)
            }
            parameters += [.integer(primaryKey), .integer(number)]
            return Self.twoValued("\(key) = ? AND \(entityNumber) = ?", operands: key, entityNumber)
        default: return nil
        }
    }

    /// `test`, which compares `operands` with bound values that are not null, made two-valued:
    /// 0 where an operand is null, as the evaluator answers, instead of SQL's NULL. When every
    /// operand is a plain column, it is written as a conjunction with `IS NOT NULL`, through
    /// which SQLite can search an index of the column (it cannot through `COALESCE(test, 0)`);
    /// an operand that is an expression stays inside `COALESCE`, as repeating it would repeat
    /// its parameters.
    static func twoValued(_ test: String, operands: String...) -> String {
        guard operands.allSatisfy(isPlainColumn) else { return "COALESCE(\(test), 0)" }
        return "(" + ([test] + operands.map { "\($0) IS NOT NULL" }).joined(separator: " AND ") + ")"
    }

    /// Whether `sql` names a column (`t0.ZNAME`) rather than computing a value.
    private static func isPlainColumn(_ sql: String) -> Bool {
        !sql.isEmpty && sql.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }
    }

    // MARK: Attribute comparisons

    private mutating func attributeCondition(
        _ op: ComparisonPredicate.Operator, _ argument: Argument, column: String, type: AttributeType,
        options: StringComparisonOptions
    ) -> String? {
        guard let family = Self.family(of: type), options.isEmpty || family == .text else { return nil }
        let expression = valueExpression(column, family: family, options: options)
        switch (op, argument) {
        case (.equalTo, .value(let value)):
            return equality(value, column: column, expression: expression, family: family, options: options)
        case (.notEqualTo, .value(let value)):
            return equality(value, column: column, expression: expression, family: family, options: options)
                .map { "NOT (\($0))" }
        case (.lessThan, .value(let value)), (.lessThanOrEqualTo, .value(let value)),
            (.greaterThan, .value(let value)), (.greaterThanOrEqualTo, .value(let value)):
            if value.isNull { return "0" }
            guard let bound = bindable(value, family: family, options: options) else { return nil }
            parameters.append(bound)
            return Self.twoValued("\(expression) \(op.rawValue) ?", operands: expression)
        case (.between, .list(let bounds)):
            guard bounds.count == 2 else { return nil }
            if bounds.contains(where: \.isNull) { return "0" }
            guard let low = bindable(bounds[0], family: family, options: options),
                let high = bindable(bounds[1], family: family, options: options)
            else { return nil }
            parameters += [low, high]
            // BETWEEN evaluates the expression once, so its own parameters are bound once.
            return Self.twoValued("\(expression) BETWEEN ? AND ?", operands: expression)
        case (.in, .list(let elements)):
            var conditions: [String] = []
            for element in elements {
                guard
                    let condition = equality(
                        element, column: column, expression: expression, family: family, options: options)
                else { return nil }
                conditions.append("(\(condition))")
            }
            return conditions.isEmpty ? "0" : conditions.joined(separator: " OR ")
        case (.beginsWith, .value(let value)), (.endsWith, .value(let value)), (.contains, .value(let value)),
            (.like, .value(let value)), (.matches, .value(let value)):
            return stringMatch(op, value, column: column, family: family, options: options)
        default: return nil
        }
    }

    private mutating func equality(
        _ constant: AttributeValue, column: String, expression: String, family: Family,
        options: StringComparisonOptions
    ) -> String? {
        if constant.isNull { return "\(column) IS NULL" }
        guard let value = bindable(constant, family: family, options: options) else { return nil }
        parameters.append(value)
        return Self.twoValued("\(expression) = ?", operands: expression)
    }

    private mutating func stringMatch(
        _ op: ComparisonPredicate.Operator, _ constant: AttributeValue, column: String, family: Family,
        options: StringComparisonOptions
    ) -> String? {
        let kinds: [ComparisonPredicate.Operator: StringPattern.Kind] = [
            .beginsWith: .prefix, .endsWith: .suffix, .contains: .substring, .like: .like, .matches: .regularExpression,
        ]
        guard family == .text, let kind = kinds[op], let code = SQLiteStrataFunctions.kindCodes[kind] else {
            return nil
        }
        if constant.isNull { return "0" }
        guard case .string(let pattern) = constant,
            (try? StringPattern(kind, pattern: pattern, options: options)) != nil
        else { return nil }
        parameters.append(.text(pattern))
        return "\(SQLiteStrataFunctions.match)(\(code), \(options.rawValue), \(column), ?)"
    }

    /// The SQL value of a column as comparisons see it.
    func valueExpression(_ column: String, family: Family, options: StringComparisonOptions) -> String {
        switch family {
        case .real, .date: return "\(SQLiteStrataFunctions.real)(\(column))"
        case .text where !options.isEmpty: return "\(SQLiteStrataFunctions.fold)(\(column), \(options.rawValue))"
        default: return column
        }
    }

    /// `constant` as the value its column's expression compares with; `nil` when the kinds do
    /// not compare in SQL as the evaluator compares them.
    private func bindable(_ constant: AttributeValue, family: Family, options: StringComparisonOptions) -> SQLiteValue?
    {
        switch (family, constant) {
        case (.number, .integer16(let n)), (.real, .integer16(let n)): return .integer(Int64(n))
        case (.number, .integer32(let n)), (.real, .integer32(let n)): return .integer(Int64(n))
        case (.number, .integer64(let n)), (.real, .integer64(let n)): return .integer(n)
        case (.number, .boolean(let flag)), (.real, .boolean(let flag)): return .integer(flag ? 1 : 0)
        case (.number, .double(let n)), (.real, .double(let n)): return n.isNaN ? nil : .real(n)
        case (.number, .float(let n)), (.real, .float(let n)): return n.isNaN ? nil : .real(Double(n))
        case (.date, .date(let date)):
            let seconds = date.timeIntervalSinceReferenceDate
            return seconds.isNaN ? nil : .real(seconds)
        case (.text, .string(let text)): return .text(options.fold(text))
        case (.url, .uri(let url)): return .text(url.absoluteString)
        case (.bytes, .binary), (.bytes, .uuid): return SQLiteValueCodec.encode(constant)
        default: return nil
        }
    }

    static func family(of type: AttributeType) -> Family? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: .number
        case .double, .float: .real
        case .date: .date
        case .string: .text
        case .uri: .url
        case .binary, .transformable, .uuid: .bytes
        case .decimal, .objectID, .undefined, .composite: nil
        }
    }
}
