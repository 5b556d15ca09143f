import Strata

/// A fetch that the store under test and the oracle must answer alike: an entity, a
/// predicate format with its arguments, sort descriptors, and a page.
struct OracleQuery: Sendable, CustomStringConvertible {
    let entity: String
    let format: String?
    let arguments: [any PredicateArgument]
    let sortDescriptors: [FetchSortDescriptor]
    let offset: Int
    let limit: Int?
    /// The serials the answer must hold, when the check pins them (in order when sorted).
    let expected: [Int64]?

    init(
        _ entity: String, where format: String? = nil, _ arguments: [any PredicateArgument] = [],
        sortedBy sortDescriptors: [FetchSortDescriptor] = [], offset: Int = 0, limit: Int? = nil,
        expecting expected: [Int64]? = nil
    ) {
        self.entity = entity
        self.format = format
        self.arguments = arguments
        self.sortDescriptors = sortDescriptors
        self.offset = offset
        self.limit = limit
        self.expected = expected
    }

    /// The parsed predicate.
    func predicate() throws -> FetchPredicate? {
        try format.map { try FetchPredicate(format: $0, arguments: arguments) }
    }

    /// Whether results come in a defined order.
    var isOrdered: Bool { !sortDescriptors.isEmpty }

    var description: String {
        var text = entity
        if let format {
            let predicate = (try? FetchPredicate(format: format, arguments: arguments))?.description ?? format
            text += " where `\(predicate)`"
        }
        if isOrdered {
            text += " sorted by " + sortDescriptors.map(Self.describe).joined(separator: ", ")
        }
        if offset != 0 { text += ", offset \(offset)" }
        if let limit { text += ", limit \(limit)" }
        return text
    }

    private static func describe(_ sort: FetchSortDescriptor) -> String {
        let comparison =
            switch sort.comparison {
            case .binary: ""
            case .caseInsensitive: " case-insensitive"
            case .localizedStandard: " localized"
            }
        return "\(sort.keyPath) \(sort.ascending ? "ascending" : "descending")\(comparison)"
    }
}
