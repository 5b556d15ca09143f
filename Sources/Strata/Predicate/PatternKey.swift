/// A pattern and its options, the key of compiled patterns. The pattern is kept as Unicode
/// scalars, because `String` equality would merge canonically equivalent patterns that
/// match differently.
struct PatternKey: Hashable {
    let scalars: [Unicode.Scalar]
    let options: StringComparisonOptions

    init(_ pattern: String, _ options: StringComparisonOptions) {
        scalars = Array(pattern.unicodeScalars)
        self.options = options
    }
}
