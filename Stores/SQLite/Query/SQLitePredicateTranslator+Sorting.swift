import Strata

extension SQLitePredicateTranslator {
    /// The `ORDER BY` terms for `descriptors`, in the evaluator's order (nulls first when
    /// ascending, NaN after nulls and before numbers); `nil` when one does not translate.
    mutating func orderTerms(for descriptors: [FetchSortDescriptor]) -> [String]? {
        var terms: [String] = []
        for descriptor in descriptors {
            guard case .attribute(let column, let type)? = operand(.keyPath(descriptor.keyPath), in: root),
                let family = Self.family(of: type)
            else { return nil }
            let direction = descriptor.ascending ? "ASC" : "DESC"
            switch (family, descriptor.comparison) {
            case (.text, .binary): terms.append("\(column) \(direction)")
            case (.text, .caseInsensitive):
                let options = StringComparisonOptions.caseInsensitive.rawValue
                terms.append("\(SQLiteStrataFunctions.fold)(\(column), \(options)) \(direction)")
            case (.text, .localizedStandard): return nil
            case (.real, _), (.date, _):
                let real = "\(SQLiteStrataFunctions.real)(\(column))"
                terms += [
                    "(\(column) IS NOT NULL) \(direction)", "(\(real) IS NOT NULL) \(direction)",
                    "\(real) \(direction)",
                ]
            default: terms.append("\(column) \(direction)")
            }
        }
        return terms
    }
}
