extension FetchExpression: CustomStringConvertible {
    /// The expression in Core Data's format syntax, such as `items.@count` or
    /// `SUBQUERY(items, $x, $x.price > 10)`.
    ///
    /// Key paths are written with dots; a first key spelled like a keyword gets a `#`
    /// (`#self.name`), as does such a function name. Constants are written so that parsing
    /// gives back the same kind of value:
    ///
    /// | value | written as |
    /// | --- | --- |
    /// | `.null` | `nil` |
    /// | `.integer64(-3)` | `-3` |
    /// | `.double(2.5)` | `2.5` (always with a `.` or an exponent) |
    /// | `.boolean(true)` | `YES` (`NO` for `false`) |
    /// | `.string("a\"b")` | `"a\"b"` (with `\\`, `\"`, `\n`, `\t`, `\r` and `\uXXXX` escapes) |
    /// | `.integer16(7)` | `CAST(7, "Int16")` |
    /// | `.integer32(7)` | `CAST(7, "Int32")` |
    /// | `.decimal(1.25)` | `CAST("1.25", "Decimal")` |
    /// | `.float(1.5)` | `CAST("1.5", "Float")` |
    /// | `.double(.infinity)` | `CAST("inf", "Double")` (also `"-inf"` and `"nan"`) |
    /// | `.date(d)` | `CAST(721692800.5, "NSDate")`, seconds since 2001-01-01 00:00:00 UTC, as Core Data writes dates |
    /// | `.binary(d)` | `CAST("00ff10", "Data")`, the bytes in hexadecimal |
    /// | `.uuid(u)` | `CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "UUID")` |
    /// | `.uri(u)` | `CAST("https://example.com/a", "URL")` |
    /// | `.objectID(i)` | `CAST("x-strata://<store>/<Entity>/p12", "ObjectID")`, each part percent-encoded (`t<UUID>` for a temporary reference, `s<key>` for a string key) |
    ///
    /// - Complexity: O(*n*), where *n* is the size of the expression.
    public var description: String {
        switch self {
        case .evaluatedObject:
            return "SELF"
        case .keyPath(let path):
            return Self.escapingFirstKey(path)
        case .keyPathOn(let base, let path):
            return "\(base).\(path)"
        case .constant(let value):
            return PredicateLiteral.format(value)
        case .variable(let name):
            return "$" + name
        case .aggregate(let elements):
            return "{" + elements.map(\.description).joined(separator: ", ") + "}"
        case .function(let name, let arguments):
            return Self.escapingFirstKey(name) + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(collection), $\(variable), \(predicate))"
        }
    }

    /// `path` with a `#` before its first key when that key is a keyword.
    private static func escapingFirstKey(_ path: String) -> String {
        let first = path.prefix { $0 != "." }
        return PredicateKeyword.isReserved(String(first)) ? "#" + path : path
    }
}
