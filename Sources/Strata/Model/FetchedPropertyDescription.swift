/// A one-way, read-only, always to-many link defined by a fetch.
///
/// The predicate may use `$FETCH_SOURCE` (the object the property belongs to) and
/// `$FETCHED_PROPERTY` variables, as in Core Data. Fetched properties are never stored and
/// do not take part in version hashes.
public struct FetchedPropertyDescription: Sendable, Hashable {
    /// The property's name, unique among the entity's properties.
    public var name: String
    /// The entity the fetch returns.
    public var destinationEntityName: String
    /// The fetch's predicate in Core Data's format syntax; `nil` fetches every object.
    public var predicateFormat: String?
    /// Free-form key-value pairs for the application.
    public var userInfo: [String: String]

    /// Creates a fetched property.
    public init(
        name: String, destinationEntityName: String, predicateFormat: String? = nil, userInfo: [String: String] = [:]
    ) {
        self.name = name
        self.destinationEntityName = destinationEntityName
        self.predicateFormat = predicateFormat
        self.userInfo = userInfo
    }
}
