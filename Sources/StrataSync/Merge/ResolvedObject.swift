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

    /// An object of `entity` with `values` and `relationships`.
    public init(entity: String, values: [String: SyncValue], relationships: [String: Set<GlobalID>] = [:]) {
        self.entity = entity
        self.values = values
        self.relationships = relationships
    }
}
