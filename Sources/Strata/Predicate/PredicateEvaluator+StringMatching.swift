extension PredicateEvaluator {
    /// Whether `text` matches `argument` as `kind` says, under the comparison's options.
    /// False when either is null.
    ///
    /// - Throws: `FetchPredicateError` with code `.evaluation` when either side is not a string,
    ///   or a `MATCHES` pattern is not a valid regular expression.
    func match(
        _ kind: StringPattern.Kind, text: EvaluatedValue, textSide: Side, argument: EvaluatedValue,
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
        return try compiledPattern(kind, patternString, comparison.options).matches(string)
    }

    /// The compiled pattern, from the cache when it was compiled before.
    private func compiledPattern(
        _ kind: StringPattern.Kind, _ pattern: String, _ options: StringComparisonOptions
    ) throws(FetchPredicateError) -> StringPattern {
        let key = PatternKey(kind, pattern, options)
        if let compiled = patterns[key] { return compiled }
        let compiled = try StringPattern(kind, pattern: pattern, options: options)
        patterns[key] = compiled
        return compiled
    }
}
