/// A synced object as the merge rules resolve it — what every replica shows once it has
/// applied the same operations — or as a replica's store shows it now
/// (``MergeState/operations(bringing:to:at:)``).
public struct ResolvedObject: Sendable, Hashable, Codable {
    /// The object's entity.
    public let entity: String
    /// Each attribute's and to-one relationship's value, by name.
    public let values: [String: SyncValue]
    /// Each to-many relationship's members, by name.
    public let relationships: [String: Set<GlobalID>]
    /// The order of each ordered to-many relationship that has members, by name. As a store
    /// shows it: the members in their order. As the merge rules resolve it: the members placed,
    /// in the order of their positions (then of their global IDs), whichever side of the
    /// relationship says which objects are members.
    public let orders: [String: [GlobalID]]

    /// An object of `entity` with `values`, `relationships` and `orders`.
    public init(
        entity: String, values: [String: SyncValue], relationships: [String: Set<GlobalID>] = [:],
        orders: [String: [GlobalID]] = [:]
    ) {
        self.entity = entity
        self.values = values
        self.relationships = relationships
        self.orders = orders
    }
}
