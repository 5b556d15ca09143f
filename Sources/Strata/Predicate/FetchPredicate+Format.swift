/// Parsing predicates from Core Data's format syntax.
extension FetchPredicate {
    /// Parses a predicate written in Core Data's format syntax, filling its placeholders with
    /// `arguments` in order.
    ///
    /// ```swift
    /// let adults = try FetchPredicate(format: "age >= %d AND name BEGINSWITH[cd] %@", 18, "a")
    /// let tagged = try FetchPredicate(format: "ANY tags.name IN %@", ["swift", "linux"])
    /// let busy = try FetchPredicate(format: "SUBQUERY(orders, $o, $o.total > 100).@count > 2")
    /// ```
    ///
    /// The syntax, with keywords in any case:
    /// - **Comparisons** `left op right`, where `op` is `==` (or `=`), `!=` (or `<>`), `<`,
    ///   `<=` (or `=<`), `>`, `>=` (or `=>`), `BETWEEN`, `IN`, `BEGINSWITH`, `ENDSWITH`,
    ///   `CONTAINS`, `LIKE` (`*` and `?` wildcards) or `MATCHES` (a regular expression),
    ///   optionally followed by `[c]`, `[d]` or `[cd]`. `ANY`/`SOME`, `ALL` or `NONE` before the
    ///   left side quantify it; `NONE` reads as `NOT ANY`. `BETWEEN` takes `{lower, upper}`.
    /// - **Compounds** `NOT`/`!`, `AND`/`&&`, `OR`/`||`, binding in that order, and parentheses;
    ///   `TRUEPREDICATE` and `FALSEPREDICATE`.
    /// - **Expressions**: key paths (`author.name`, `items.@count`, `items.@sum.price`, with
    ///   `@avg`, `@min` and `@max` too; a key spelled like a keyword is written `#key`),
    ///   `SELF`, `$VARIABLE` and `$x.name`, `SUBQUERY(collection, $x, predicate)` (often with
    ///   `.@count`), function calls such as `now()` or `lowercase(name)`, aggregates
    ///   `{1, 2, 'a'}`, and placeholders.
    /// - **Literals**: `nil`/`NULL`; `YES`/`TRUE`, `NO`/`FALSE`; integers (also `0x1F`, `0o17`,
    ///   `0b101`) as ``AttributeValue/integer64(_:)``; numbers with a fraction or exponent as
    ///   ``AttributeValue/double(_:)``; strings in single or double quotes with the escapes `\\`,
    ///   `\'`, `\"`, `\n`, `\t`, `\r`, `\0` and `\uXXXX` (another backslash stays as written);
    ///   and `CAST(literal, "Type")` for every other kind of constant, as ``description``
    ///   writes them.
    /// - **Placeholders** `%@` (any argument), `%K` (a key path given as a string), `%d`, `%i`,
    ///   `%ld`, `%lld`, `%u` (integers) and `%f`, `%lf` (numbers). A placeholder inside quotes is
    ///   plain text. See ``PredicateArgument``.
    ///
    /// Nesting (parentheses, `NOT`, calls, aggregates, `SUBQUERY`, `CAST`) is limited to 500
    /// levels, and to what the calling thread's stack has room for: deeper input is a syntax
    /// error, never a crash.
    ///
    /// - Throws: `FetchPredicateError` with code `.syntax` when the format does not parse (its
    ///   ``FetchPredicateError/offset`` says where, in characters), or `.argument` when there are too
    ///   few or too many arguments, or one does not fit its placeholder.
    /// - Complexity: O(*n* + *m*), where *n* is the length of `format` and *m* the size of the
    ///   arguments.
    public init(format: String, _ arguments: any PredicateArgument...) throws(FetchPredicateError) {
        try self.init(format: format, arguments: arguments)
    }

    /// Parses a predicate written in Core Data's format syntax, filling its placeholders with
    /// the elements of `arguments` in order.
    ///
    /// See ``init(format:_:)`` for the syntax.
    ///
    /// - Throws: `FetchPredicateError` with code `.syntax` or `.argument`, as ``init(format:_:)``.
    /// - Complexity: O(*n* + *m*), where *n* is the length of `format` and *m* the size of the
    ///   arguments.
    public init(format: String, arguments: [any PredicateArgument]) throws(FetchPredicateError) {
        var parser = PredicateParser(format: format, arguments: arguments)
        self = try parser.parse()
    }
}

extension FetchExpression {
    /// Parses one expression written in Core Data's format syntax (`price * quantity`,
    /// `sqrt:(area)`, `"fixed"`, `%@`), filling its placeholders with `arguments` in order:
    /// the new value of a ``BatchUpdateRequest``, for example.
    ///
    /// - Throws: `FetchPredicateError` with code `.syntax` (naming the offset) or `.argument`,
    ///   as ``FetchPredicate/init(format:_:)``.
    public init(format: String, _ arguments: any PredicateArgument...) throws(FetchPredicateError) {
        var parser = PredicateParser(format: format, arguments: arguments)
        self = try parser.parseWholeExpression()
    }
}
