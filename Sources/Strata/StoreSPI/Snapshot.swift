/// The stored state of one object: its attribute values, its to-one references and its
/// optimistic-lock version. Snapshots cross between stores and the core; managed objects never
/// do.
///
/// ``values`` holds every persistent attribute (``AttributeValue/null`` when it has no value)
/// and every persistent to-one relationship (``AttributeValue/objectID(_:)``, or `null` when
/// empty), by property name. A store that knows the object's ``EntitySchema`` builds them by
/// slot (``PropertyValues/init(entity:slots:)``), which the core loads without hashing names. To-many relationships are not in a snapshot; a store answers them
/// with ``StoreReading/relatedObjectIDs(of:relationship:)``.
///
/// ``version`` starts at 1 when the object is first saved and grows by exactly one each time a
/// save changes it.
public struct Snapshot: Sendable, Hashable {
    /// The object this snapshot describes.
    public var objectID: ObjectID
    /// Attribute values and to-one references, by property name (held by slot when made
    /// with ``PropertyValues/init(entity:slots:)``).
    public var values: PropertyValues
    /// The optimistic-lock version.
    public var version: Int64

    /// Creates a snapshot.
    public init(objectID: ObjectID, values: PropertyValues, version: Int64) {
        self.objectID = objectID
        self.values = values
        self.version = version
    }

    /// Creates a snapshot from values by name.
    public init(objectID: ObjectID, values: [String: AttributeValue], version: Int64) {
        self.init(objectID: objectID, values: PropertyValues(values), version: version)
    }
}
