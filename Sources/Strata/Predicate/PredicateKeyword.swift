/// The reserved words of the predicate syntax, matched without regard to ASCII case.
///
/// A key or function named like one of these is written with a leading `#` (`#in`,
/// `#self`); ``FetchExpression/description`` adds the `#` where needed.
enum PredicateKeyword: String, CaseIterable {
    case and = "AND"
    case or = "OR"
    case not = "NOT"
    case any = "ANY"
    case someQuantifier = "SOME"
    case all = "ALL"
    case noneQuantifier = "NONE"
    case `in` = "IN"
    case between = "BETWEEN"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case contains = "CONTAINS"
    case like = "LIKE"
    case matches = "MATCHES"
    case null = "NULL"
    case `nil` = "NIL"
    case `self` = "SELF"
    case `true` = "TRUE"
    case `false` = "FALSE"
    case yes = "YES"
    case no = "NO"
    case truePredicate = "TRUEPREDICATE"
    case falsePredicate = "FALSEPREDICATE"
    case subquery = "SUBQUERY"
    case cast = "CAST"
    case ternary = "TERNARY"

    /// The keyword spelled by `word` in any ASCII case; `nil` for every other word.
    ///
    /// Only ASCII letters fold, so `ın` (dotless i) is a key, not `IN`.
    init?(_ word: String) {
        guard word.utf8.count <= 14, word.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        self.init(rawValue: word.uppercased())
    }

    /// Whether `word` is reserved and must be written `#word` as a key.
    static func isReserved(_ word: String) -> Bool { PredicateKeyword(word) != nil }
}
