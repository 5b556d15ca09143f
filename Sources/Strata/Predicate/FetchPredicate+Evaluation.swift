extension FetchPredicate {
    /// Whether the predicate holds for `object`, evaluated in memory as Core Data evaluates an
    /// `NSPredicate` against objects.
    ///
    /// ```swift
    /// let adults = FetchPredicate.comparison(ComparisonPredicate(.keyPath("age"), .greaterThanOrEqualTo, .constant(.integer16(18))))
    /// let isAdult = try adults.evaluate(with: person)
    /// ```
    ///
    /// **Expressions.**
    /// - A key path walks through to-one relationships; an empty relationship in the middle
    ///   gives null, not an error. Through a to-many relationship it gives a collection
    ///   (`tags.name` is the names of the tags); collections met on the way are flattened.
    /// - Collection operators `@count`, `@sum`, `@avg`, `@min`, `@max` reduce a collection
    ///   (`items.@sum.price` or `items.price.@sum`, `tags.@count`, `SUBQUERY(…).@count`).
    ///   On an empty collection `@count` and `@sum` give 0 and the others null. `@sum` and
    ///   `@avg` skip nulls, as SQL does.
    /// - `SELF` is the object; `$NAME` takes its value from `variables` (keys without the `$`).
    ///   `SUBQUERY(collection, $x, predicate)` keeps the elements for which `predicate` holds,
    ///   with `$x` and `SELF` standing for each element.
    /// - Functions: `now()`, `lowercase(s)`, `uppercase(s)`, `abs(x)`, `add:to:`,
    ///   `from:subtract:`, `multiply:by:`, `divide:by:`, and `count:`, `sum:`, `average:`,
    ///   `min:`, `max:` of a collection. `now()` is read once per call.
    /// - An object compared with a value stands for its ``KeyValueResolving/objectIdentity``,
    ///   so `author == <object ID>` and `SELF IN {<object IDs>}` work.
    ///
    /// **Comparisons** follow ``AttributeValue/compare(_:options:)``: numbers of any width
    /// compare by value, strings by Unicode scalars, `[c]` folds case (`ß` equals `ss`) and
    /// `[d]` removes diacritics. Values of unrelated kinds are never equal and never ordered;
    /// NaN equals nothing.
    /// - `==` holds for null and null, and never for null and a value; `!=` is its
    ///   negation, so `x != 3` holds when `x` is null.
    /// - `<`, `<=`, `>`, `>=` and `BETWEEN` are false when either side is null or the sides
    ///   cannot be ordered. `BETWEEN {low, high}` includes both bounds.
    /// - `BEGINSWITH`, `ENDSWITH`, `CONTAINS` on strings, `LIKE` and `MATCHES` are false when
    ///   either side is null, and an error when either side is another kind of value. An empty
    ///   argument is a prefix, suffix and substring of every string.
    /// - `LIKE`: `*` matches any run of characters, `?` exactly one character; every other
    ///   character is literal; the whole string must match.
    /// - `MATCHES`: an ICU regular expression that must match the whole string; `[c]` makes
    ///   it case-insensitive.
    /// - `IN` with a collection on the right tests membership (with `==`, options honoured);
    ///   with a string on the right it tests for a substring. `CONTAINS` with a collection on
    ///   the left tests membership; with a string, for a substring.
    ///
    /// **Collections on the left.** `ANY` holds when some element matches; `ALL` when every
    /// element does, so it holds for an empty collection (`NOT ANY` expresses `NONE`). A null
    /// left side counts as an empty collection. Without a modifier a collection may only be
    /// searched with `CONTAINS` or reduced with a collection operator; comparing it directly
    /// (`tags.name == "x"`) is an error naming the key path, rather than a silent `false`.
    ///
    /// - Parameters:
    ///   - object: The object to test.
    ///   - variables: The values of the `$VARIABLE`s the predicate uses, by name without `$`.
    /// - Throws: `FetchPredicateError` with code `.unknownVariable` for a variable missing from
    ///   `variables`, or `.evaluation` for an unknown key, function or collection operator,
    ///   an invalid `MATCHES` pattern, or operands that do not fit their operator.
    /// - Complexity: O(*n*) in the number of objects and values the predicate visits, times
    ///   the length of the strings matched.
    public func evaluate(with object: any KeyValueResolving, variables: [String: AttributeValue] = [:])
        throws(FetchPredicateError) -> Bool
    {
        try PredicateEvaluator(variables: variables).evaluate(self, with: object)
    }

    /// The objects of `objects` for which the predicate holds, in their order.
    ///
    /// One evaluation serves every object: each `LIKE` and `MATCHES` pattern is compiled
    /// once, and `now()` is the same date for all of them. Semantics and errors are those of
    /// ``evaluate(with:variables:)``.
    ///
    /// - Complexity: O(*m* × *n*), where *m* is the number of objects and *n* the cost of one
    ///   evaluation.
    public func filter<Object: KeyValueResolving>(_ objects: [Object], variables: [String: AttributeValue] = [:])
        throws(FetchPredicateError) -> [Object]
    {
        let evaluator = PredicateEvaluator(variables: variables)
        var matching: [Object] = []
        for object in objects where try evaluator.evaluate(self, with: object) {
            matching.append(object)
        }
        return matching
    }
}

extension FetchExpression {
    /// The value of the expression for `object`: a key path's value, a constant, a
    /// function's or an arithmetic result; an object reached through a to-one relationship is
    /// its ID.
    ///
    /// - Throws: `FetchPredicateError` with code `.unknownVariable` for a variable missing from
    ///   `variables`, or `.evaluation` when the expression cannot be evaluated or gives a
    ///   collection rather than one value.
    public func value(with object: any KeyValueResolving, variables: [String: AttributeValue] = [:])
        throws(FetchPredicateError) -> AttributeValue
    {
        try FetchEvaluation(variables: variables).value(of: self, for: object)
    }
}
