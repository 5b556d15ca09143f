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
    /// The order of each ordered to-many relationship, by name. As a store shows it: its
    /// members in their order (a relationship without members is left out). As the merge rules
    /// resolve it: every object ever placed in it that is shown — members, and former ones,
    /// whose placements stay — in the order of their positions, then of their global IDs;
    /// which of them are members is for the relationship, or its inverse, to say.
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

    private enum CodingKeys: String, CodingKey { case entity, values, relationships, orders }

    /// The object `decoder` holds; one written before there were orders has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        entity = try container.decode(String.self, forKey: .entity)
        values = try container.decode([String: SyncValue].self, forKey: .values)
        relationships = try container.decode([String: Set<GlobalID>].self, forKey: .relationships)
        orders = try container.decodeIfPresent([String: [GlobalID]].self, forKey: .orders) ?? [:]
    }
}
