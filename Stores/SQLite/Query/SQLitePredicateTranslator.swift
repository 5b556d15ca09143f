import Foundation
import Strata

/// Translates predicates and sort descriptors on one entity's table (alias `t0`) into SQL
/// that gives exactly the in-memory evaluator's answers, or reports that it cannot.
///
/// Every translated condition is two-valued (0 or 1, never NULL), so `NOT` and `OR` keep the
/// evaluator's meaning for null values. What translates (docs/SQLITE.md, "Predicates"):
/// comparisons, `BETWEEN` and `IN` between an attribute, a to-one relationship or `SELF` and
/// constants of a matching kind; the string operators and `[c]`/`[d]` through Strata's SQL
/// functions; constants, `AND`, `OR`, `NOT`.
struct SQLitePredicateTranslator {
    let store: SQLiteStore
    let entity: EntitySchema
    let table: SQLiteSchema.EntityTable
    /// The values bound to the `?` parameters, in order.
    private(set) var parameters: [SQLiteValue] = []

    init(store: SQLiteStore, entity: EntitySchema, table: SQLiteSchema.EntityTable) {
        self.store = store
        self.entity = entity
        self.table = table
    }

    /// What a key path names in the table.
    private enum Operand {
        /// An attribute's column.
        case attribute(column: String, type: AttributeType)
        /// A to-one relationship's key column and, if any, its entity column.
        case toOne(column: String, entityColumn: String?)
        /// The row itself.
        case object
    }

    /// The constant side of a comparison: one value, or a list (`IN {…}`, `BETWEEN {…}`).
    private enum Argument {
        case value(AttributeValue)
        case list([AttributeValue])

        /// The one value; `nil` for a list.
        var single: AttributeValue? {
            if case .value(let value) = self { return value }
            return nil
        }

        /// The list's values, or the elements of a collection value; `nil` for a scalar.
        var elements: [AttributeValue]? {
            if case .list(let values) = self { return values }
            return nil
        }
    }

    /// The kinds of value that compare with each other in SQL as the evaluator compares them.
    private enum Family: Equatable {
        case number, real, text, date, bytes, url
    }

    // MARK: Predicates

    /// The SQL condition for `predicate`; `nil` when some part does not translate.
    mutating func condition(for predicate: FetchPredicate) -> String? {
        let saved = parameters
        let result = translate(predicate)
        if result == nil { parameters = saved }
        return result
    }

    private mutating func translate(_ predicate: FetchPredicate) -> String? {
        switch predicate {
        case .constant(let flag): return flag ? "1" : "0"
        case .and(let parts): return combine(parts, with: " AND ", empty: "1")
        case .or(let parts): return combine(parts, with: " OR ", empty: "0")
        case .not(let inner): return translate(inner).map { "NOT (\($0))" }
        case .comparison(let comparison): return translate(comparison)
        }
    }

    private mutating func combine(_ parts: [FetchPredicate], with separator: String, empty: String) -> String? {
        var conditions: [String] = []
        for part in parts {
            guard let condition = translate(part) else { return nil }
            conditions.append("(\(condition))")
        }
        return conditions.isEmpty ? empty : conditions.joined(separator: separator)
    }

    private mutating func translate(_ comparison: ComparisonPredicate) -> String? {
        guard comparison.modifier == .direct else { return nil }
        var op = comparison.operator
        var (left, right) = (comparison.left, comparison.right)
        if case .constant = left, let flipped = Self.flipped(op) {
            (left, right, op) = (right, left, flipped)
        }
        guard let operand = operand(left) else { return nil }
        let constant: Argument
        switch right {
        case .constant(let value): constant = .value(value)
        case .aggregate(let items):
            let values = items.compactMap { item -> AttributeValue? in
                if case .constant(let value) = item { return value }
                return nil
            }
            guard values.count == items.count else { return nil }
            constant = .list(values)
        default: return nil
        }
        switch operand {
        case .object:
            guard comparison.options.isEmpty else { return nil }
            return objectCondition(op, constant, keyColumn: "t0.Z_PK", entityColumn: "t0.Z_ENT")
        case .toOne(let column, let entityColumn):
            guard comparison.options.isEmpty else { return nil }
            return objectCondition(
                op, constant, keyColumn: "t0.\(column)", entityColumn: entityColumn.map { "t0.\($0)" })
        case .attribute(let column, let type):
            return attributeCondition(op, constant, column: "t0.\(column)", type: type, options: comparison.options)
        }
    }

    /// The operator that gives the same answer with its sides swapped; `nil` when there is none.
    private static func flipped(_ op: ComparisonPredicate.Operator) -> ComparisonPredicate.Operator? {
        switch op {
        case .equalTo, .notEqualTo: op
        case .lessThan: .greaterThan
        case .lessThanOrEqualTo: .greaterThanOrEqualTo
        case .greaterThan: .lessThan
        case .greaterThanOrEqualTo: .lessThanOrEqualTo
        default: nil
        }
    }

    private func operand(_ expression: FetchExpression) -> Operand? {
        switch expression {
        case .evaluatedObject: return .object
        case .keyPath(let key) where !key.contains(".") && !key.hasPrefix("@"):
            if let attribute = entity.attributesByName[key], !attribute.isTransient {
                let owner = store.layout.declaringEntity(of: key, in: entity, model: store.model)
                guard let index = store.layout.columnIndex(.attribute(entity: owner, name: key), in: table) else {
                    return nil
                }
                return .attribute(column: table.columns[index].name, type: attribute.type)
            }
            if let relationship = entity.relationshipsByName[key], !relationship.isToMany, !relationship.isTransient {
                let owner = store.layout.declaringEntity(of: key, in: entity, model: store.model)
                guard let index = store.layout.columnIndex(.toOne(entity: owner, name: key), in: table) else {
                    return nil
                }
                let entityIndex = store.layout.columnIndex(.toOneEntity(entity: owner, name: key), in: table)
                return .toOne(
                    column: table.columns[index].name, entityColumn: entityIndex.map { table.columns[$0].name })
            }
            return nil
        default: return nil
        }
    }

    // MARK: Object comparisons

    private mutating func objectCondition(
        _ op: ComparisonPredicate.Operator, _ constant: Argument, keyColumn: String, entityColumn: String?
    ) -> String? {
        switch (op, constant) {
        case (.equalTo, .value(let value)):
            return objectEquality(value, keyColumn: keyColumn, entityColumn: entityColumn)
        case (.notEqualTo, .value(let value)):
            return objectEquality(value, keyColumn: keyColumn, entityColumn: entityColumn).map { "NOT (\($0))" }
        case (.in, .list(let elements)):
            var conditions: [String] = []
            for element in elements {
                guard let condition = objectEquality(element, keyColumn: keyColumn, entityColumn: entityColumn) else {
                    return nil
                }
                conditions.append("(\(condition))")
            }
            return conditions.isEmpty ? "0" : conditions.joined(separator: " OR ")
        default: return nil
        }
    }

    private mutating func objectEquality(
        _ constant: AttributeValue, keyColumn: String, entityColumn: String?
    ) -> String? {
        switch constant {
        case .null: return "\(keyColumn) IS NULL"
        case .objectID(let objectID):
            guard objectID.storeIdentifier == store.identifier, case .integer(let key) = objectID.reference,
                let number = store.layout.entityNumbers[objectID.entityName]
            else { return "0" }
            parameters.append(.integer(key))
            guard let entityColumn else { return "COALESCE(\(keyColumn) = ?, 0)" }
            parameters.append(.integer(number))
            return "COALESCE(\(keyColumn) = ? AND \(entityColumn) = ?, 0)"
        default: return nil
        }
    }

    // MARK: Attribute comparisons

    private mutating func attributeCondition(
        _ op: ComparisonPredicate.Operator, _ argument: Argument, column: String, type: AttributeType,
        options: StringComparisonOptions
    ) -> String? {
        guard let family = Self.family(of: type) else { return nil }
        if op == .in || op == .between {
            guard let elements = argument.elements else { return nil }
            return listCondition(op, elements, column: column, family: family, options: options)
        }
        guard let constant = argument.single else { return nil }
        guard options.isEmpty || family == .text else { return nil }
        let expression = valueExpression(column, family: family, options: options)
        switch op {
        case .equalTo:
            return equality(constant, column: column, expression: expression, family: family, options: options)
        case .notEqualTo:
            return equality(constant, column: column, expression: expression, family: family, options: options)
                .map { "NOT (\($0))" }
        case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
            if constant.isNull { return "0" }
            guard let value = bindable(constant, family: family, options: options) else { return nil }
            parameters.append(value)
            return "COALESCE(\(expression) \(op.rawValue) ?, 0)"
        case .between, .in: return nil
        case .beginsWith, .endsWith, .contains, .like, .matches:
            return stringMatch(op, constant, column: column, family: family, options: options)
        }
    }

    private mutating func listCondition(
        _ op: ComparisonPredicate.Operator, _ elements: [AttributeValue], column: String, family: Family,
        options: StringComparisonOptions
    ) -> String? {
        let expression = valueExpression(column, family: family, options: options)
        if op == .between {
            guard elements.count == 2 else { return nil }
            if elements.contains(where: \.isNull) { return "0" }
            guard let low = bindable(elements[0], family: family, options: options),
                let high = bindable(elements[1], family: family, options: options)
            else { return nil }
            parameters += [low, high]
            return "COALESCE(\(expression) >= ? AND \(expression) <= ?, 0)"
        }
        var conditions: [String] = []
        for element in elements {
            guard
                let condition = equality(
                    element, column: column, expression: expression, family: family, options: options)
            else { return nil }
            conditions.append("(\(condition))")
        }
        return conditions.isEmpty ? "0" : conditions.joined(separator: " OR ")
    }

    private mutating func equality(
        _ constant: AttributeValue, column: String, expression: String, family: Family,
        options: StringComparisonOptions
    ) -> String? {
        if constant.isNull { return "\(column) IS NULL" }
        guard let value = bindable(constant, family: family, options: options) else { return nil }
        parameters.append(value)
        return "COALESCE(\(expression) = ?, 0)"
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
    private func valueExpression(_ column: String, family: Family, options: StringComparisonOptions) -> String {
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

    private static func family(of type: AttributeType) -> Family? {
        switch type {
        case .integer16, .integer32, .integer64, .boolean: .number
        case .double, .float: .real
        case .date: .date
        case .string: .text
        case .uri: .url
        case .binary, .transformable, .uuid: .bytes
        case .decimal, .objectID, .undefined: nil
        }
    }

    // MARK: Sorting

    /// The `ORDER BY` terms for `descriptors`; `nil` when one does not translate.
    func orderTerms(for descriptors: [FetchSortDescriptor]) -> [String]? {
        var terms: [String] = []
        for descriptor in descriptors {
            guard case .attribute(let column, let type)? = operand(.keyPath(descriptor.keyPath)),
                let family = Self.family(of: type)
            else { return nil }
            let direction = descriptor.ascending ? "ASC" : "DESC"
            let qualified = "t0.\(column)"
            switch (family, descriptor.comparison) {
            case (.text, .binary): terms.append("\(qualified) \(direction)")
            case (.text, .caseInsensitive):
                let options = StringComparisonOptions.caseInsensitive.rawValue
                terms.append("\(SQLiteStrataFunctions.fold)(\(qualified), \(options)) \(direction)")
            case (.text, .localizedStandard): return nil
            case (.real, _), (.date, _):
                let real = "\(SQLiteStrataFunctions.real)(\(qualified))"
                terms += [
                    "(\(qualified) IS NOT NULL) \(direction)", "(\(real) IS NOT NULL) \(direction)",
                    "\(real) \(direction)",
                ]
            default: terms.append("\(qualified) \(direction)")
            }
        }
        return terms
    }
}
