/// A plain ``KeyValueResolving`` object backed by a dictionary: test data, or values that
/// are not managed objects.
///
/// ```swift
/// let author = KeyValueRecord(identity: .string("a1"), ["name": .value(.string("Ann"))])
/// let book = KeyValueRecord(["title": .value(.string("Dune")), "author": .object(author)])
/// try predicate.evaluate(with: book)
/// ```
public struct KeyValueRecord: KeyValueResolving {
    /// The value of each key; a key that is absent is reported as unknown by the evaluator.
    public var values: [String: ResolvedValue]
    /// The value standing for this record when it is compared with a constant.
    public var objectIdentity: AttributeValue

    /// Creates a record with the given values, standing for `identity` in comparisons with
    /// constants.
    public init(identity: AttributeValue = .null, _ values: [String: ResolvedValue]) {
        self.values = values
        self.objectIdentity = identity
    }

    /// The value stored for `key`; `nil` when there is none.
    public func resolvedValue(forKey key: String) -> ResolvedValue? {
        values[key]
    }
}
