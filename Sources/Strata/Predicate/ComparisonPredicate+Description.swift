extension ComparisonPredicate: CustomStringConvertible {
    /// The comparison in Core Data's format syntax, such as `ANY tags.name BEGINSWITH[cd] "a"`.
    ///
    /// The quantifier comes first (`ANY`, `ALL`), the operator is written in its canonical
    /// spelling (`==`, `!=`, `<=`, `>=`, `BEGINSWITH` and so on) with the options right after
    /// it (`[c]`, `[d]` or `[cd]`). See ``FetchExpression/description`` for the operands.
    public var description: String {
        let quantifier =
            switch modifier {
            case .direct: ""
            case .any: "ANY "
            case .all: "ALL "
            }
        var flags = ""
        if options.contains(.caseInsensitive) { flags += "c" }
        if options.contains(.diacriticInsensitive) { flags += "d" }
        let suffix = flags.isEmpty ? "" : "[\(flags)]"
        return "\(quantifier)\(left) \(self.operator.rawValue)\(suffix) \(right)"
    }
}
