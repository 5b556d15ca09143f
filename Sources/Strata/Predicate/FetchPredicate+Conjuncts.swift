extension FetchPredicate {
    /// The parts of an `AND` at the top of the predicate, nested `AND`s flattened; the predicate
    /// itself when it is not an `AND`. A store translates or evaluates each part on its own: an
    /// object matches when every part holds.
    public var conjuncts: [FetchPredicate] {
        guard case .and(let parts) = self else { return [self] }
        return parts.flatMap(\.conjuncts)
    }
}
