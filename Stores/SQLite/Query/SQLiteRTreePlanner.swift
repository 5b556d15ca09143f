import Strata

/// Sends range comparisons of a fetch through the store's R-tree indexes: for each index, one
/// condition `t0.Z_PK IN (SELECT Z_PK FROM <index> WHERE …)` bounding every indexed attribute
/// the fetch's conditions bound. The comparisons themselves stay in the query, so the answer is
/// exact: the R-tree only narrows the rows (its 32-bit boxes hold each value, rounded outwards).
///
/// An index is used when `indexed:by:(attribute, "index")` names it, when the conditions bound
/// two or more of its attributes, or when no binary index starts with an attribute they bound.
/// An attribute under `noindex:` bounds nothing.
struct SQLiteRTreePlanner {
    /// One bound the conditions put on an attribute.
    private struct Bound {
        let attribute: String
        let isLower: Bool
        let value: SQLiteValue
    }

    let indexes: [SQLiteSchema.RTreeIndex]
    let layout: SQLiteSchema

    /// The R-tree conditions for the conjuncts `parts` of a fetch of `entity`.
    func conditions(for parts: [FetchPredicate], entity: EntitySchema, translator: inout SQLitePredicateTranslator)
        -> [String]
    {
        let lineage = Set([entity.name] + entity.superentityNames)
        let candidates = indexes.filter { lineage.contains($0.entityName) }
        guard !candidates.isEmpty else { return [] }
        var bounds: [Bound] = []
        var named: Set<String> = []
        for part in parts {
            guard case .comparison(let comparison) = part else { continue }
            let found = Self.bounds(of: comparison)
            bounds += found.bounds
            if let name = found.indexName { named.insert(name) }
        }
        var conditions: [String] = []
        for index in candidates {
            let columns = Dictionary(
                index.dimensions.map { ($0.attribute, $0.column) }, uniquingKeysWith: { a, _ in a })
            let used = bounds.filter { columns[$0.attribute] != nil }
            guard !used.isEmpty else { continue }
            let attributes = Set(used.map(\.attribute))
            let leadsBinaryIndex = attributes.contains { attribute in
                layout.indexes.contains { binary in
                    binary.table == index.table && binary.condition == nil
                        && binary.columns.first?.split(separator: " ").first.map(String.init) == columns[attribute]
                }
            }
            guard named.contains(index.fetchIndexName) || attributes.count >= 2 || !leadsBinaryIndex else { continue }
            let terms = used.map { bound in
                let column = columns[bound.attribute] ?? ""
                return bound.isLower
                    ? "\(column)_MAX >= \(translator.bind(bound.value))"
                    : "\(column)_MIN <= \(translator.bind(bound.value))"
            }
            conditions.append("t0.Z_PK IN (SELECT Z_PK FROM \(index.name) WHERE \(terms.joined(separator: " AND ")))")
        }
        return conditions
    }

    /// The bounds `comparison` puts on an attribute of the fetched object, and the index an
    /// `indexed:by:` in it names.
    private static func bounds(of comparison: ComparisonPredicate) -> (bounds: [Bound], indexName: String?) {
        guard comparison.modifier == .direct, comparison.options.isEmpty else { return ([], nil) }
        var (left, right, op) = (comparison.left, comparison.right, comparison.operator)
        if case .constant = left, let flipped = op.withSidesSwapped {
            (left, right, op) = (right, left, flipped)
        }
        var indexName: String?
        if case .function("indexed:by:", let arguments) = left, arguments.count == 2,
            case .constant(.string(let name)) = arguments[1]
        {
            indexName = name
            left = arguments[0]
        }
        guard case .keyPath(let attribute) = left, !attribute.contains("."),
            let argument = ComparisonConstant(right)
        else { return ([], indexName) }
        func bound(_ value: AttributeValue, lower: Bool) -> Bound? {
            number(value).map { Bound(attribute: attribute, isLower: lower, value: $0) }
        }
        switch (op, argument) {
        case (.greaterThan, .value(let value)), (.greaterThanOrEqualTo, .value(let value)):
            return ([bound(value, lower: true)].compactMap { $0 }, indexName)
        case (.lessThan, .value(let value)), (.lessThanOrEqualTo, .value(let value)):
            return ([bound(value, lower: false)].compactMap { $0 }, indexName)
        case (.equalTo, .value(let value)):
            return ([bound(value, lower: true), bound(value, lower: false)].compactMap { $0 }, indexName)
        case (.between, .list(let values)) where values.count == 2:
            return ([bound(values[0], lower: true), bound(values[1], lower: false)].compactMap { $0 }, indexName)
        default:
            return ([], indexName)
        }
    }

    /// A number constant as the R-tree compares it; `nil` for anything else, and for a number
    /// beyond 32-bit floats' range, where the R-tree's boxes (rounded to infinity) cannot be
    /// bounded by it.
    private static func number(_ value: AttributeValue) -> SQLiteValue? {
        switch value {
        case .integer16(let n): .integer(Int64(n))
        case .integer32(let n): .integer(Int64(n))
        case .integer64(let n): .integer(n)
        case .double(let n): n.isNaN || abs(n) > Double(Float.greatestFiniteMagnitude) ? nil : .real(n)
        case .float(let n): n.isNaN || n.isInfinite ? nil : .real(Double(n))
        default: nil
        }
    }
}
