/// Names a query generation: a state of a coordinator's stores that pinned contexts read,
/// whatever is saved since (docs/GENERATIONS.md).
///
/// Get one from a pinned context's ``ManagedObjectContext/queryGenerationToken`` and hand it
/// to another context's ``ManagedObjectContext/setQueryGenerationFrom(_:)`` to pin both to the
/// same state; ``current`` pins a context to the newest state at its next read.
///
/// Tokens of one generation are equal; a later generation's token is greater, and ``current``
/// is greater than every other. A token keeps its generation, and what the stores hold for it
/// (an SQLite read transaction, an LMDB reader slot), alive: drop tokens you no longer need.
public struct QueryGenerationToken: Sendable, Hashable, Comparable, CustomStringConvertible {
    let generation: QueryGeneration?

    /// The newest generation, taken when the context pinned to it next reads.
    public static let current = QueryGenerationToken(generation: nil)

    public static func == (lhs: QueryGenerationToken, rhs: QueryGenerationToken) -> Bool {
        lhs.generation === rhs.generation
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(generation?.coordinatorSerial)
        hasher.combine(generation?.sequence)
    }

    /// Whether `lhs` names an earlier generation than `rhs`: generations are ordered as their
    /// coordinator took them, and ``current`` comes after every other.
    public static func < (lhs: QueryGenerationToken, rhs: QueryGenerationToken) -> Bool {
        guard let right = rhs.generation else { return lhs.generation != nil }
        guard let left = lhs.generation else { return false }
        return (left.sequence, left.coordinatorSerial) < (right.sequence, right.coordinatorSerial)
    }

    /// `current`, or the generation's number and its coordinator's.
    public var description: String {
        guard let generation else { return "current" }
        return "generation \(generation.sequence) of coordinator \(generation.coordinatorSerial)"
    }
}
