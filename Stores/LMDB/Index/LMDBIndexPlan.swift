import CStrataLMDB
import Strata

/// The index ranges whose entries include every object a predicate can match: the fetch
/// decodes only those objects' records and evaluates the whole predicate on them, so a range
/// may be wider than the predicate (an exclusive bound, a long string's prefix) but never
/// narrower.
struct LMDBIndexPlan {
    /// Index keys of one property whose middle part lies between two bounds, both included.
    struct Range: Hashable {
        /// The indexed property.
        var property: String
        /// The smallest middle part.
        var lower: [UInt8]
        /// The largest middle part; `nil` for every value of the property's kind.
        var upper: [UInt8]?

        /// Whether `middle` lies in the range.
        func contains(_ middle: some Collection<UInt8>) -> Bool {
            guard let upper else { return middle.first == 1 }
            return !upper.lexicographicallyPrecedes(middle)
        }
    }

    /// The ranges; an object is a candidate when an entry of it lies in one of them.
    let ranges: [Range]
    /// Whether the candidates are exactly the matching objects (unless an entry holds a value
    /// of another kind): comparisons `==`, `<=`, `>=`, `BETWEEN`, `IN` of integers or Booleans,
    /// `==` and `IN` of references, and `OR` of them. A count then needs no record.
    let isExact: Bool

    /// The plan for `predicate` over objects of `entities`, or `nil` when no index narrows it
    /// (the fetch then reads every record). A property qualifies when each of `entities`
    /// indexes it with the same kind, and, for a partial index, when the predicate's top-level
    /// conditions include the index's.
    init?(_ predicate: FetchPredicate, entities: [String], indexes: LMDBIndexes) {
        let conjuncts = Set(predicate.conjuncts)
        func kind(of property: String) -> LMDBIndexKind? {
            let kinds = Set(entities.map { indexes.kind(of: property, in: $0, conjuncts: conjuncts) })
            guard kinds.count == 1, let kind = kinds.first else { return nil }
            return kind
        }
        guard let ranges = Self.ranges(predicate, kind: kind) else { return nil }
        self.ranges = ranges
        self.isExact = Self.isExact(predicate, kind: kind)
    }

    private static func isExact(_ predicate: FetchPredicate, kind: (String) -> LMDBIndexKind?) -> Bool {
        switch predicate {
        case .or(let parts): return parts.allSatisfy { isExact($0, kind: kind) }
        case .comparison(let comparison):
            guard comparison.modifier == .direct, let found = ranges(comparison, kind: kind) else { return false }
            let property = found.first?.property ?? ""
            let op = comparison.left == .keyPath(property) ? comparison.operator : flip(comparison.operator)
            switch (kind(property), op) {
            case (.integer?, .equalTo?), (.integer?, .lessThanOrEqualTo?), (.integer?, .greaterThanOrEqualTo?),
                (.integer?, .between?), (.integer?, .in?), (.boolean?, .equalTo?), (.boolean?, .in?),
                (.reference?, .equalTo?), (.reference?, .in?):
                return true
            default: return false
            }
        default: return false
        }
    }

    private static func ranges(_ predicate: FetchPredicate, kind: (String) -> LMDBIndexKind?) -> [Range]? {
        switch predicate {
        case .constant, .not: return nil
        case .and(let parts):
            for part in parts {
                if let some = ranges(part, kind: kind) { return some }
            }
            return nil
        case .or(let parts):
            var all: [Range] = []
            for part in parts {
                guard let some = ranges(part, kind: kind) else { return nil }
                all += some
            }
            return all
        case .comparison(let comparison): return ranges(comparison, kind: kind)
        }
    }

    private static func ranges(_ comparison: ComparisonPredicate, kind: (String) -> LMDBIndexKind?) -> [Range]? {
        guard comparison.modifier == .direct else { return nil }
        var op = comparison.operator
        let property: String
        let constant: FetchExpression
        switch (comparison.left, comparison.right) {
        case (.keyPath(let path), let other) where !path.contains("."):
            (property, constant) = (path, other)
        case (let other, .keyPath(let path)) where !path.contains("."):
            guard let flipped = flip(op) else { return nil }
            (property, constant, op) = (path, other, flipped)
        default: return nil
        }
        guard let kind = kind(property), comparison.options.isEmpty || kind != .string else { return nil }
        func bound(_ expression: FetchExpression) -> [UInt8]? {
            guard case .constant(let value) = expression else { return nil }
            return kind.bound(value)
        }
        switch op {
        case .equalTo:
            return bound(constant).map { [Range(property: property, lower: $0, upper: $0)] }
        case .lessThan, .lessThanOrEqualTo:
            guard let upper = bound(constant), upper != [0] else { return nil }
            return [Range(property: property, lower: [1], upper: upper)]
        case .greaterThan, .greaterThanOrEqualTo:
            guard let lower = bound(constant), lower != [0] else { return nil }
            return [Range(property: property, lower: lower, upper: nil)]
        case .between:
            guard case .aggregate(let ends) = constant, ends.count == 2, let lower = bound(ends[0]),
                let upper = bound(ends[1]), lower != [0], upper != [0]
            else { return nil }
            return [Range(property: property, lower: lower, upper: upper)]
        case .in:
            guard case .aggregate(let members) = constant else { return nil }
            var ranges: [Range] = []
            for member in members {
                guard let point = bound(member) else { return nil }
                ranges.append(Range(property: property, lower: point, upper: point))
            }
            return ranges
        default: return nil
        }
    }

    private static func flip(_ op: ComparisonPredicate.Operator) -> ComparisonPredicate.Operator? {
        switch op {
        case .equalTo: .equalTo
        case .lessThan: .greaterThan
        case .lessThanOrEqualTo: .greaterThanOrEqualTo
        case .greaterThan: .lessThan
        case .greaterThanOrEqualTo: .lessThanOrEqualTo
        case .notEqualTo, .between, .in, .beginsWith, .endsWith, .contains, .like, .matches: nil
        }
    }

    /// The primary keys of the candidates among the entries of `entities` in `transaction`,
    /// in key order, and whether some came from the bucket of values of another kind, which
    /// are always candidates.
    func candidates(
        in transaction: LMDBTransaction, index: MDB_dbi, entities: [String]
    ) throws -> (keys: [Int64], includesOtherKinds: Bool) {
        var keys = Set<Int64>()
        var includesOtherKinds = false
        for entity in entities {
            for property in Set(ranges.map(\.property)) {
                let prefix = LMDBLayout.prefix(entity: entity, property: property)
                try transaction.scan(index, prefix: prefix + [2]) { key, _ in
                    keys.insert(LMDBLayout.primaryKey(key))
                    includesOtherKinds = true
                }
            }
            for range in ranges {
                let prefix = LMDBLayout.prefix(entity: entity, property: range.property)
                try transaction.scan(index, from: prefix + range.lower) { key, _ in
                    guard key.count >= prefix.count + 8, key.starts(with: prefix) else { return false }
                    guard range.contains(key[prefix.count..<(key.count - 8)]) else { return false }
                    keys.insert(LMDBLayout.primaryKey(key))
                    return true
                }
            }
        }
        return (keys.sorted(), includesOtherKinds)
    }
}
