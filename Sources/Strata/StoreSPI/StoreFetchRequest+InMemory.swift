/// The part of a fetch a store cannot give to its database, done in memory once for every
/// store: the core's evaluator filters, sorts and pages the objects the store read.
extension StoreFetchRequest {
    /// The request's result over `objects`, every candidate of its entities in the store's
    /// order: those `predicate` matches (all when it is `nil`), sorted by the request's sort
    /// descriptors, then the page its offset and limit give, as its result type asks.
    ///
    /// - Parameters:
    ///   - objects: The candidates, each resolving key paths for the evaluator.
    ///   - predicate: What the store did not evaluate itself: the request's predicate, the
    ///     part of it left over, or `nil`.
    ///   - snapshot: An object's snapshot.
    ///   - check: Runs after the filter and after the sort: a store whose resolvers keep read
    ///     errors to throw later throws them here.
    public func result<Object: KeyValueResolving>(
        of objects: [Object], matching predicate: FetchPredicate?, snapshot: (Object) -> Snapshot,
        check: () throws -> Void = {}
    ) throws -> StoreFetchResult {
        var objects = objects
        if let predicate {
            objects = try predicate.filter(objects)
            try check()
        }
        let page = try sortedPage(of: objects, check: check)
        switch resultType {
        case .count: return .count(page.count)
        case .objectIDs: return .objectIDs(page.map { snapshot($0).objectID })
        case .snapshots: return .snapshots(page.map(snapshot))
        }
    }

    /// `objects` sorted by the request's sort descriptors (kept in order when it has none),
    /// then the page its offset and limit give.
    func sortedPage<Object: KeyValueResolving>(of objects: [Object], check: () throws -> Void = {}) throws
        -> ArraySlice<Object>
    {
        var objects = objects
        if !sortDescriptors.isEmpty {
            objects = try FetchSortDescriptor.sorted(objects, by: sortDescriptors)
            try check()
        }
        return objects.dropFirst(max(fetchOffset, 0)).prefix(pageSize)
    }
}
