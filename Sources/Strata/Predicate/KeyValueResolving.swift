/// Something a predicate can be evaluated against, or a sort descriptor can order: a
/// managed object, a stored snapshot, or a plain record.
///
/// The in-memory evaluator (``FetchPredicate/evaluate(with:variables:)``) and
/// ``FetchSortDescriptor`` reach an object's values only through this protocol, so the core
/// plugs managed objects and store snapshots in alike.
///
/// A conforming type must:
/// - return from ``resolvedValue(forKey:)`` the current value of every attribute and
///   relationship of its entity: ``ResolvedValue/value(_:)`` for an attribute
///   (``AttributeValue/null`` when it has no value) and for an empty to-one relationship,
///   ``ResolvedValue/object(_:)`` for a filled to-one relationship, and
///   ``ResolvedValue/objects(_:)`` for a to-many relationship (empty when it has no
///   members);
/// - return `nil` from ``resolvedValue(forKey:)`` for a key its entity does not have, so the
///   evaluator can report the key instead of silently treating it as null;
/// - give in ``objectIdentity`` the value that stands for the object when it is compared with
///   a constant (`SELF == %@`, `author == %@`, `author IN %@`): normally
///   ``AttributeValue/objectID(_:)``.
///
/// ``KeyValueRecord`` is a ready-made conformance for test data and dictionaries.
public protocol KeyValueResolving {
    /// The value for `key`, one step of a key path; `nil` when the object has no such key.
    func resolvedValue(forKey key: String) -> ResolvedValue?

    /// The value standing for this object when it is compared with a constant, normally its
    /// ``ObjectID`` as ``AttributeValue/objectID(_:)``.
    var objectIdentity: AttributeValue { get }
}
