extension FetchRequestTemplate {
    /// The template's predicate with its `$VARIABLE`s replaced by `variables`; `nil` when the
    /// template has no predicate (it fetches every object).
    ///
    /// ```swift
    /// let template = FetchRequestTemplate(name: "postsByAuthor", entityName: "Post",
    ///                                     predicateFormat: "author.name == $NAME")
    /// let predicate = try template.predicate(substituting: ["NAME": .string("Ada")])
    /// ```
    ///
    /// - Throws: `FetchPredicateError`, its message naming the template: code `.syntax` or
    ///   `.argument` when ``predicateFormat`` does not parse, `.unknownVariable` when a
    ///   variable has no value in `variables`.
    /// - Complexity: O(*n*), where *n* is the length of ``predicateFormat``.
    public func predicate(substituting variables: [String: AttributeValue]) throws(FetchPredicateError)
        -> FetchPredicate?
    {
        guard let predicateFormat else { return nil }
        do {
            return try FetchPredicate(format: predicateFormat).substituting(variables)
        } catch {
            var named = error
            named.message = "Fetch request template '\(name)' of '\(entityName)': \(error.message)"
            throw named
        }
    }
}
