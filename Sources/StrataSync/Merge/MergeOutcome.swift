/// What applying one operation did.
public enum MergeOutcome: Sendable, Hashable {
    /// The operation's change now holds.
    case applied
    /// A later write or deletion, stamped as given, already holds: the conflict is settled by
    /// the latest timestamp.
    case superseded(by: SyncTimestamp)
    /// The operation had been applied before; nothing changed.
    case duplicate
}
