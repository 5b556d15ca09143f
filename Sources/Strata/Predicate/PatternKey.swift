/// A string operator, its pattern and its options, the key of compiled patterns. The pattern is kept as Unicode
/// scalars, because `String` equality would merge canonically equivalent patterns that
/// match differently.
struct PatternKey: Hashable {
    let kind: StringPattern.Kind
    let scalars: [Unicode.Scalar]
    let options: StringComparisonOptions

    init(_ kind: StringPattern.Kind, _ pattern: String, _ options: StringComparisonOptions) {
        self.kind = kind
        scalars = Array(pattern.unicodeScalars)
        self.options = options
    }
}
