extension PredicateEvaluator {
    /// The ways the string operators test a text against an argument.
    enum StringMatch {
        /// `BEGINSWITH`.
        case prefix
        /// `ENDSWITH`.
        case suffix
        /// `CONTAINS` on a string, or `IN` with a string on the right.
        case substring
        /// `LIKE`, with `*` and `?` wildcards.
        case like
        /// `MATCHES`, an ICU regular expression.
        case regularExpression
    }

    /// Whether `text` matches `argument` as `kind` says, under the comparison's options.
    /// False when either is null.
    ///
    /// - Throws: `FetchPredicateError` with code `.evaluation` when either side is not a string,
    ///   or a `MATCHES` pattern is not a valid regular expression.
    func match(
        _ kind: StringMatch, text: EvaluatedValue, textSide: Side, argument: EvaluatedValue,
        _ comparison: ComparisonPredicate
    ) throws(FetchPredicateError) -> Bool {
        let argumentSide: Side = textSide == .left ? .right : .left
        let subject = try scalar(text, side: textSide, comparison)
        let pattern = try scalar(argument, side: argumentSide, comparison)
        if subject.isNull || pattern.isNull { return false }
        guard case .string(let string) = subject, case .string(let patternString) = pattern else {
            let offender = subject.attributeType == .string ? argumentSide : textSide
            let offending = offender == textSide ? subject : pattern
            let expression = offender == .left ? comparison.left : comparison.right
            throw FetchPredicateError(
                code: .evaluation,
                message: "In '\(comparison.evaluationLabel)', \(comparison.operator.rawValue) needs strings, but '"
                    + "\(expression.evaluationLabel)' is \(offending.kindDescription)."
            )
        }
        let options = comparison.options
        switch kind {
        case .prefix:
            return Self.folded(string, options).starts(with: Self.folded(patternString, options))
        case .suffix:
            return Self.folded(string, options).reversed().starts(with: Self.folded(patternString, options).reversed())
        case .substring:
            return Self.contains(Self.folded(string, options), Self.folded(patternString, options))
        case .like:
            return likePattern(patternString, options).matches(string)
        case .regularExpression:
            return try regularExpression(patternString, options).matches(string)
        }
    }

    /// The Unicode scalars of `string` folded under `options`, as
    /// ``AttributeValue/compare(_:options:)`` compares them.
    static func folded(_ string: String, _ options: StringComparisonOptions) -> [Unicode.Scalar] {
        Array(AttributeValue.normalized(string, options).unicodeScalars)
    }

    /// The compiled `LIKE` pattern, from the cache when it was compiled before.
    private func likePattern(_ pattern: String, _ options: StringComparisonOptions) -> LikePattern {
        let key = PatternKey(pattern, options)
        if let compiled = likePatterns[key] { return compiled }
        let compiled = LikePattern(pattern, options: options)
        likePatterns[key] = compiled
        return compiled
    }

    /// The compiled `MATCHES` pattern, from the cache when it was compiled before.
    private func regularExpression(
        _ pattern: String, _ options: StringComparisonOptions
    ) throws(FetchPredicateError) -> RegularExpressionPattern {
        let key = PatternKey(pattern, options)
        if let compiled = regularExpressions[key] { return compiled }
        let compiled = try RegularExpressionPattern(pattern, options: options)
        regularExpressions[key] = compiled
        return compiled
    }

    /// Whether `needle` occurs as a contiguous run in `haystack`; true for an empty `needle`.
    private static func contains(_ haystack: [Unicode.Scalar], _ needle: [Unicode.Scalar]) -> Bool {
        if needle.isEmpty { return true }
        if needle.count > haystack.count { return false }
        for start in 0...(haystack.count - needle.count) {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
