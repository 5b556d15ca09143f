/// What to fetch from a context: an entity, a condition, an order, a page, and how to return
/// the objects. `Result` is the class the objects come back as.
///
/// ```swift
/// var request = FetchRequest<Book>()
/// request.predicate = try FetchPredicate(format: "pages > %@", 100)
/// request.sortDescriptors = [FetchSortDescriptor(key: "title")]
/// let books = try context.fetch(request)
/// ```
public struct FetchRequest<Result: ManagedObject>: Sendable {
    /// The entity to fetch.
    public var entityName: String
    /// The condition objects must meet; `nil` for every object.
    public var predicate: FetchPredicate?
    /// The order of the results; store order when empty.
    public var sortDescriptors: [FetchSortDescriptor] = []
    /// The most objects to return; `nil` or 0 for no limit (0 as in Core Data).
    public var fetchLimit: Int?
    /// How many matching objects to skip.
    public var fetchOffset = 0
    /// When above 0, ``ManagedObjectContext/fetch(_:)`` returns a collection that loads the
    /// objects' values this many at a time, as they are first used.
    public var fetchBatchSize = 0
    /// Whether objects of sub-entities are included.
    public var includesSubentities = true
    /// Whether the context's unsaved inserts, changes and deletions count (they do by default).
    public var includesPendingChanges = true
    /// Whether objects come back as faults whose values load on first use (the values are
    /// fetched with them and kept, so that costs no second store read).
    public var returnsObjectsAsFaults = true
    /// Relationship key paths (`"author"`, `"books.publisher"`) whose destinations are loaded
    /// with the results.
    public var relationshipKeyPathsForPrefetching: [String] = []
    /// The properties ``ManagedObjectContext/fetchDictionaries(_:)`` returns: attributes,
    /// to-one relationships or key paths through them; when `nil`, every attribute and to-one
    /// relationship, or the ``propertiesToGroupBy`` when grouping or aggregating.
    public var propertiesToFetch: [String]?
    /// Computed values ``ManagedObjectContext/fetchDictionaries(_:)`` returns besides
    /// ``propertiesToFetch``, each under its name (Core Data's expression descriptions among
    /// the properties to fetch).
    public var expressionsToFetch: [ExpressionDescription] = []
    /// The key paths whose values group the objects of a dictionary fetch: one row per
    /// distinct combination, with aggregates over the group. ``propertiesToFetch`` may then
    /// hold only these keys.
    public var propertiesToGroupBy: [String]?
    /// The condition a group's row must meet, over its keys and expression names (SQL's
    /// `HAVING`); only with ``propertiesToGroupBy``.
    public var havingPredicate: FetchPredicate?
    /// Whether a dictionary fetch leaves out rows equal to an earlier one.
    public var returnsDistinctResults = false
    /// Whether ``ManagedObjectContext/fetch(_:)`` reads the objects' values with them; when
    /// off, objects come back as faults that read their values on first use, and the fetch
    /// reads only IDs.
    public var includesPropertyValues = true
    /// The stores to search; every store holding the entity when `nil`.
    public var affectedStores: [any IncrementalStore]?

    /// A request for every object of `entityName`.
    public init(entityName: String) {
        self.entityName = entityName
    }

    /// A request for every object of `Result`'s entity (``ManagedObject/entityName``).
    public init() {
        self.init(entityName: Result.entityName)
    }
}
