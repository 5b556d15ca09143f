/// The result of evaluating a ``FetchExpression`` against an object: a value, an object, or
/// a collection of either (a to-many relationship, an aggregate, a subquery result).
enum EvaluatedValue {
    /// A single value, ``AttributeValue/null`` included.
    case value(AttributeValue)
    /// An object reached through a to-one relationship, a variable, or `SELF`.
    case object(any KeyValueResolving)
    /// The elements of a to-many relationship, an aggregate or a subquery; never nested.
    case collection([EvaluatedValue])

    /// Wraps one step of a key path.
    init(_ resolved: ResolvedValue) {
        switch resolved {
        case .value(let value): self = .value(value)
        case .object(let object): self = .object(object)
        case .objects(let objects): self = .collection(objects.map { .object($0) })
        }
    }

    /// The value to compare: the value itself, or an object's identity; `nil` for a
    /// collection.
    var scalar: AttributeValue? {
        switch self {
        case .value(let value): value
        case .object(let object): object.objectIdentity
        case .collection: nil
        }
    }

    /// Words for messages, such as "a value of type String" or "a collection of 3 elements".
    var kindDescription: String {
        switch self {
        case .value(let value): value.kindDescription
        case .object: "an object"
        case .collection(let elements): "a collection of \(elements.count) element\(elements.count == 1 ? "" : "s")"
        }
    }
}
