/// The members of one to-many relationship under sync: a set in which an addition wins over a
/// concurrent removal (an observed-remove set).
///
/// Each addition is tagged with its timestamp; a removal takes away the tags its replica had
/// seen. A member is in the set while one of its tags is not taken away, so an addition made
/// on one replica while another removed the member keeps it. Applying the same additions and
/// removals in any order, any number of times, gives the same set.
public struct ObservedRemoveSet: Sendable, Hashable, Codable {
    /// Each member's addition tags, removed ones included.
    private(set) var additions: [GlobalID: Set<SyncTimestamp>] = [:]
    /// Each member's tags that removals took away. Kept after the member has gone, so that an
    /// addition arriving after its removal stays removed.
    private(set) var removals: [GlobalID: Set<SyncTimestamp>] = [:]

    /// The JSON keys kept since the first version.
    private enum CodingKeys: String, CodingKey {
        case additions = "added"
        case removals = "removed"
    }

    /// An empty set.
    public init() {}

    /// A set with these tags, as kept.
    init(additions: [GlobalID: Set<SyncTimestamp>], removals: [GlobalID: Set<SyncTimestamp>]) {
        self.additions = additions
        self.removals = removals
    }

    /// The members.
    public var members: Set<GlobalID> { Set(additions.keys.filter(contains)) }

    /// Whether `member` is in the set.
    public func contains(_ member: GlobalID) -> Bool { !liveTags(of: member).isEmpty }

    /// The tags of `member`'s additions not taken away: what a removal made now observes.
    public func liveTags(of member: GlobalID) -> Set<SyncTimestamp> {
        (additions[member] ?? []).subtracting(removals[member] ?? [])
    }

    /// Adds `member` under `tag`.
    mutating func add(_ member: GlobalID, tag: SyncTimestamp) { additions[member, default: []].insert(tag) }

    /// Takes away the `observed` tags of `member`.
    mutating func remove(_ member: GlobalID, observed: some Sequence<SyncTimestamp>) {
        removals[member, default: []].formUnion(observed)
    }
}
