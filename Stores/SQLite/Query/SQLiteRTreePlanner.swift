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
    /// One bound the conditions put on an attribute, as the R-tree compares it.
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
        let (found, named) = RangeBound.bounds(ofConjuncts: parts)
        let bounds = found.compactMap { bound in
            Self.number(bound.value).map { Bound(attribute: bound.attribute, isLower: bound.isLower, value: $0) }
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
