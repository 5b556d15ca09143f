import Strata

/// The SQL functions every connection of a Strata SQLite store has, so that pushed-down
/// predicates give exactly the in-memory evaluator's answers (docs/SQLITE.md, "Predicates").
enum SQLiteStrataFunctions {
    /// `strata_fold(text, options)`: the text as comparisons under the string options see it
    /// (`StringComparisonOptions/fold(_:)`); other values unchanged.
    static let fold = "strata_fold"
    /// `strata_match(kind, options, text, pattern)`: 1 when `text` passes the string operator
    /// `kind` (see ``kindCodes``) with `pattern`, 0 otherwise (also for null or non-text).
    static let match = "strata_match"
    /// `strata_real(value)`: a real column's number, also when it is kept as IEEE 754 bytes
    /// (NaN reads as null, which no ordering or equality holds for).
    static let real = "strata_real"
    // `strata_evaluate(n, column…)` is ``SQLiteRowEvaluations``'.

    /// The codes of the string operators in `strata_match`.
    static let kindCodes: [StringPattern.Kind: Int64] = [
        .prefix: 1, .suffix: 2, .substring: 3, .like: 4, .regularExpression: 5,
    ]

    /// Functions Core Data's derived-attribute triggers call (COREDATA-FORMATS §C.4); without
    /// them, writing a table with such a trigger fails. They tell Core Data's context which
    /// objects a trigger changed; Strata's context computes the same values itself when it
    /// saves, so they do nothing.
    static let coreDataTriggerFunctions = [
        "NSCoreDataDATriggerUpdatedAffectedObjectValue", "NSCoreDataDATriggerInsertUpdatedAffectedObjectValue",
    ]

    /// Defines every function on `connection`.
    static func define(on connection: SQLiteConnection) throws(SQLiteError) {
        try connection.defineFunction(fold, argumentCount: 2) { arguments in
            guard case .text(let text) = arguments[0], case .integer(let bits) = arguments[1] else {
                return arguments[0]
            }
            return .text(StringComparisonOptions(rawValue: UInt8(truncatingIfNeeded: bits)).fold(text))
        }
        let patterns = PatternCache()
        try connection.defineFunction(match, argumentCount: 4) { arguments in
            guard case .integer(let code) = arguments[0], case .integer(let bits) = arguments[1],
                case .text(let text) = arguments[2], case .text(let pattern) = arguments[3],
                let kind = kindCodes.first(where: { $0.value == code })?.key,
                let compiled = patterns.pattern(
                    kind, pattern, StringComparisonOptions(rawValue: UInt8(truncatingIfNeeded: bits)))
            else { return .integer(0) }
            return .integer(compiled.matches(text) ? 1 : 0)
        }
        try connection.defineFunction(real, argumentCount: 1) { arguments in
            guard case .blob = arguments[0] else { return arguments[0] }
            guard case .double(let number)? = SQLiteValueCodec.decode(arguments[0], as: .double), !number.isNaN else {
                return .null
            }
            return .real(number)
        }
        let slot = connection.rowEvaluations
        try connection.defineFunction(SQLiteRowEvaluations.functionName, argumentCount: -1, isDeterministic: false) {
            arguments throws(SQLiteFunctionFailure) in
            guard let evaluations = slot.current else {
                throw SQLiteFunctionFailure(message: "\(SQLiteRowEvaluations.functionName) has nothing to evaluate.")
            }
            return try evaluations.evaluate(arguments)
        }
        for name in coreDataTriggerFunctions {
            try connection.defineFunction(name, argumentCount: -1, isCalledFromSchema: true) { _ in .null }
        }
    }

    /// Compiled patterns of one connection, reused across rows and statements.
    private final class PatternCache {
        private struct Key: Hashable {
            let kind: StringPattern.Kind
            let pattern: [Unicode.Scalar]
            let options: StringComparisonOptions
        }
        private var compiled: [Key: StringPattern] = [:]

        func pattern(_ kind: StringPattern.Kind, _ text: String, _ options: StringComparisonOptions) -> StringPattern? {
            let key = Key(kind: kind, pattern: Array(text.unicodeScalars), options: options)
            if let pattern = compiled[key] { return pattern }
            guard let pattern = try? StringPattern(kind, pattern: text, options: options) else { return nil }
            compiled[key] = pattern
            return pattern
        }
    }
}
