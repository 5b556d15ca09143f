/// The value of one key of a ``KeyValueResolving`` object: an attribute, or a relationship.
public enum ResolvedValue {
    /// An attribute's value, ``AttributeValue/null`` when it has none; also an empty
    /// to-one relationship, as `.value(.null)`.
    case value(AttributeValue)
    /// The destination of a filled to-one relationship.
    case object(any KeyValueResolving)
    /// The destinations of a to-many relationship, empty when it has none.
    case objects([any KeyValueResolving])
}
