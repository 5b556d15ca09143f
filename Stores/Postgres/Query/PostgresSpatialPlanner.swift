import Strata

/// Sends range comparisons of a fetch through the store's GiST indexes on points
/// (``PostgresLayout/SpatialIndex``): for each index whose attributes the fetch's top-level
/// conditions both bound, or that `indexed:by:(attribute, "index")` names, one condition
/// `point(…) <@ box(…)` holding every indexed attribute within its bounds. The comparisons
/// themselves stay in the query, so the answer is exact: the box only keeps out rows that
/// cannot match (its corners are rounded as the points are, and PostgreSQL's geometric
/// comparisons allow a little more, never less). An attribute under `noindex:` bounds nothing.
struct PostgresSpatialPlanner: Sendable {
    let indexes: [PostgresLayout.SpatialIndex]

    /// The spatial conditions for the conjuncts `parts` of a fetch of `entity`, binding their
    /// corners through `translator`.
    func conditions(for parts: [FetchPredicate], entity: EntitySchema, translator: inout PostgresPredicateTranslator)
        -> [String]
    {
        guard !indexes.isEmpty else { return [] }
        let lineage = Set([entity.name] + entity.superentityNames)
        let candidates = indexes.filter { lineage.contains($0.entityName) }
        guard !candidates.isEmpty else { return [] }
        let (bounds, named) = RangeBound.bounds(ofConjuncts: parts)
        var conditions: [String] = []
        for index in candidates {
            let used = bounds.filter { index.attributes.contains($0.attribute) }
            guard named.contains(index.fetchIndexName) || Set(used.map(\.attribute)).count == index.attributes.count
            else { continue }
            var low = index.attributes.map { _ in -PostgresLayout.SpatialIndex.limit }
            var high = index.attributes.map { _ in PostgresLayout.SpatialIndex.limit }
            for bound in used {
                guard let position = index.attributes.firstIndex(of: bound.attribute),
                    let value = Self.coordinate(bound.value)
                else { continue }
                if bound.isLower {
                    low[position] = max(low[position], value)
                } else {
                    high[position] = min(high[position], value)
                }
            }
            let corners = [low, high].map { corner in
                "point(" + corner.map { translator.bind(.double($0)) + "::float8" }.joined(separator: ", ") + ")"
            }
            conditions.append("\(index.point("t.")) <@ box(\(corners.joined(separator: ", ")))")
        }
        return conditions
    }

    /// A bound as a coordinate of the index's points: rounded to a `Double` as PostgreSQL
    /// rounds the column (rounding keeps the order of `<=`), and held within ±limit.
    private static func coordinate(_ value: AttributeValue) -> Double? {
        let number: Double
        switch value {
        case .integer16(let n): number = Double(n)
        case .integer32(let n): number = Double(n)
        case .integer64(let n): number = Double(n)
        case .double(let n): number = n
        case .float(let n): number = Double(n)
        default: return nil
        }
        let limit = PostgresLayout.SpatialIndex.limit
        return number.isNaN ? nil : min(max(number, -limit), limit)
    }
}
