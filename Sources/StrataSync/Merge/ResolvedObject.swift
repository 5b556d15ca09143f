/// A synced object as the merge rules resolve it: what every replica shows once it has applied
/// the same operations.
public struct ResolvedObject: Sendable, Hashable {
    /// The object's entity.
    public let entity: String
    /// Each attribute's and to-one relationship's value, by name.
    public let values: [String: SyncValue]
    /// Each to-many relationship's members, by name.
    public let relationships: [String: Set<GlobalID>]
}
