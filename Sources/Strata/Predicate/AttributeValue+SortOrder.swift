import Foundation

extension AttributeValue {
    /// Orders two values for sorting, ascending; a total order (see ``FetchSortDescriptor``).
    ///
    /// Null comes first; values of unrelated kinds are ordered by kind; NaN comes before
    /// every other number; numbers equal in value are the same whatever their width.
    func sortOrder(_ other: AttributeValue, comparison: FetchSortDescriptor.Comparison) -> ComparisonResult {
        let (rank, otherRank) = (sortRank, other.sortRank)
        if rank != otherRank { return rank < otherRank ? .orderedAscending : .orderedDescending }
        switch (self, other) {
        case (.string(let a), .string(let b)):
            switch comparison {
            case .binary: return Self.compareStrings(a, b, options: [])
            case .caseInsensitive: return Self.compareStrings(a, b, options: .caseInsensitive)
            case .localizedStandard: return LocalizedStandardOrder.compare(a, b)
            }
        case (.objectID(let a), .objectID(let b)):
            return Self.order(a, b)
        default:
            if let a = numericValue?.doubleValue.isNaN, let b = other.numericValue?.doubleValue.isNaN, a || b {
                return a == b ? .orderedSame : (a ? .orderedAscending : .orderedDescending)
            }
            return compare(other) ?? .orderedSame
        }
    }

    /// The position of the value's kind among kinds.
    private var sortRank: Int {
        switch self {
        case .null: 0
        case .integer16, .integer32, .integer64, .decimal, .double, .float, .boolean: 1
        case .string: 2
        case .date: 3
        case .binary: 4
        case .uuid: 5
        case .uri: 6
        case .objectID: 7
        }
    }

    /// Orders object IDs by store identifier (none first), entity name, then reference
    /// (temporary, then integer, then string).
    private static func order(_ a: ObjectID, _ b: ObjectID) -> ComparisonResult {
        switch (a.storeIdentifier, b.storeIdentifier) {
        case (nil, .some): return .orderedAscending
        case (.some, nil): return .orderedDescending
        case (let x?, let y?):
            let stores = compareStrings(x, y, options: [])
            if stores != .orderedSame { return stores }
        case (nil, nil): break
        }
        let entities = compareStrings(a.entityName, b.entityName, options: [])
        if entities != .orderedSame { return entities }
        switch (a.reference, b.reference) {
        case (.temporary(let x), .temporary(let y)): return AttributeValue.uuid(x).compare(.uuid(y)) ?? .orderedSame
        case (.integer(let x), .integer(let y)):
            return AttributeValue.integer64(x).compare(.integer64(y)) ?? .orderedSame
        case (.string(let x), .string(let y)): return compareStrings(x, y, options: [])
        case (.temporary, _), (.integer, .string): return .orderedAscending
        default: return .orderedDescending
        }
    }
}
