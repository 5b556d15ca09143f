/// A dictionary fetch a store may answer itself, projecting, grouping and aggregating its
/// columns without reading whole objects. The core hands one over only when the answer is the
/// one it would compute from the objects (``ManagedObjectContext/fetchDictionaries(_:)``):
/// the context has no unsaved change and reads the store's latest state, one store holds the
/// entity, and every part is one of those below.
///
/// Rows come as the core makes them: one per object in the fetch's order, or, when grouped,
/// one per group in the order of its first object (one row for every object when grouped by
/// nothing), or, when distinct, each row once in the order of its first object; the offset
/// and limit count rows.
public struct StoreDictionaryFetch: Sendable, Hashable {
    /// One value of each row.
    public enum Column: Sendable, Hashable {
        /// An attribute, or a to-one relationship as the destination's object ID, under its
        /// name.
        case property(String)
        /// An aggregate of an attribute over the group's objects, nulls left out, under
        /// `name`: `count` (an `integer64`), `min` and `max` (of the attribute's type; null
        /// for none), `sum` of integers (an `integer64`, 0 for none) and `average` of
        /// integers (a `decimal`; null for none).
        case aggregate(Aggregate, attribute: String, name: String)
    }

    /// The aggregate functions a store may compute.
    public enum Aggregate: String, Sendable, Hashable, CaseIterable {
        case count, sum, average, min, max
    }

    public var entityName: String
    public var includesSubentities: Bool
    public var predicate: FetchPredicate?
    public var sortDescriptors: [FetchSortDescriptor]
    /// The values of each row, in no particular order.
    public var columns: [Column]
    /// The attributes whose values make the groups; `nil` for one row per object.
    public var groupBy: [String]?
    /// Whether a row equal to an earlier one is left out.
    public var returnsDistinctResults: Bool
    public var fetchOffset: Int
    /// The most rows to return; `nil` for all.
    public var fetchLimit: Int?

    /// Creates a dictionary fetch.
    public init(
        entityName: String, includesSubentities: Bool = true, predicate: FetchPredicate? = nil,
        sortDescriptors: [FetchSortDescriptor] = [], columns: [Column], groupBy: [String]? = nil,
        returnsDistinctResults: Bool = false, fetchOffset: Int = 0, fetchLimit: Int? = nil
    ) {
        self.entityName = entityName
        self.includesSubentities = includesSubentities
        self.predicate = predicate
        self.sortDescriptors = sortDescriptors
        self.columns = columns
        self.groupBy = groupBy
        self.returnsDistinctResults = returnsDistinctResults
        self.fetchOffset = fetchOffset
        self.fetchLimit = fetchLimit
    }
}
