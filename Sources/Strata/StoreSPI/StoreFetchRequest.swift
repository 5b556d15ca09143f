/// A fetch as a store receives it: which objects, in which order, and what to return.
public struct StoreFetchRequest: Sendable, Hashable {
    /// What a fetch returns.
    public enum ResultType: Sendable, Hashable {
        /// The IDs of the matching objects.
        case objectIDs
        /// The snapshots of the matching objects.
        case snapshots
        /// How many objects match.
        case count
    }

    /// The entity to fetch.
    public var entityName: String
    /// Whether objects of the entity's sub-entities are included.
    public var includesSubentities: Bool
    /// The condition objects must meet; `nil` matches every object.
    public var predicate: FetchPredicate?
    /// The order of the results; unordered when empty.
    public var sortDescriptors: [FetchSortDescriptor]
    /// How many matching objects to skip, after sorting.
    public var fetchOffset: Int
    /// The most objects to return, after the offset; `nil` or 0 for no limit (0 as in Core Data).
    public var fetchLimit: Int?
    /// What to return.
    public var resultType: ResultType

    /// Creates a request for every object of `entityName`.
    public init(
        entityName: String, includesSubentities: Bool = true, predicate: FetchPredicate? = nil,
        sortDescriptors: [FetchSortDescriptor] = [], fetchOffset: Int = 0, fetchLimit: Int? = nil,
        resultType: ResultType = .snapshots
    ) {
        self.entityName = entityName
        self.includesSubentities = includesSubentities
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.fetchOffset = fetchOffset
        self.fetchLimit = fetchLimit
        self.resultType = resultType
    }
}

extension StoreFetchRequest {
    /// `limit`, or `nil` when it asks for no limit: `nil` or 0, as in Core Data.
    static func effectiveLimit(_ limit: Int?) -> Int? { limit == 0 ? nil : limit }

    /// The most objects to return after the offset: `Int.max` when ``fetchLimit`` is `nil` or 0.
    public var pageSize: Int { max(Self.effectiveLimit(fetchLimit) ?? .max, 0) }

    /// How many of `total` matching objects the request returns once its offset and limit
    /// apply: what a count answers.
    public func pageCount(ofTotal total: Int) -> Int {
        max(0, min(total - max(fetchOffset, 0), pageSize))
    }
}

/// What a store returns for a ``StoreFetchRequest``, matching its result type.
public enum StoreFetchResult: Sendable, Hashable {
    /// The IDs of the matching objects, in order.
    case objectIDs([ObjectID])
    /// The snapshots of the matching objects, in order.
    case snapshots([Snapshot])
    /// How many objects match.
    case count(Int)
}
