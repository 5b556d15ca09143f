/// A store without a local file whose part of a save across stores outlives the process once
/// prepared: it writes a change set in a named transaction of its own without making it
/// visible, before the save is decided in the save log, and commits or rolls it back once the
/// coordinator has decided (docs/STRIPED-SAVES.md). A coordinator that adds the store again
/// finishes what a killed process left prepared. The built-in PostgreSQL store is such a
/// store (`PREPARE TRANSACTION`).
package protocol PreparingStore: IncrementalStore {
    /// What names the database the store's transactions run in: stores with the same one
    /// (PostgreSQL stores in schemas of one database) write their parts of a save in one
    /// transaction, which any of them runs; `nil` when the store shares transactions with no
    /// other.
    var transactionDomain: String? { get }

    /// Checks each part of `parts` (this store's, and those of stores of the same
    /// ``transactionDomain``) against what its store holds (versions, uniqueness constraints)
    /// and writes them in one transaction prepared as `name`, without making them visible.
    /// Nothing is visible, and nothing is kept, when it throws.
    func prepare(_ parts: [(store: any IncrementalStore, changes: StoreChangeSet)], named name: String) throws
        -> any PreparedChanges

    /// Saves each part of `parts` (this store's, and those of stores of the same
    /// ``transactionDomain``) in one transaction, all or nothing, calling `decision` before it
    /// commits, as ``IncrementalStore/save(_:committingAfter:)`` does for one store.
    func save(
        jointly parts: [(store: any IncrementalStore, changes: StoreChangeSet)],
        committingAfter decision: () throws -> Void
    ) throws

    /// The names of the prepared changes of this store still waiting for a decision.
    func preparedChangeNames() throws -> [String]

    /// Commits (`commit`) or rolls back the prepared changes `name` that an earlier process
    /// left waiting.
    func finishPreparedChanges(named name: String, commit: Bool) throws

    /// Reads the store's metadata again: after prepared changes that another store of its
    /// ``transactionDomain`` committed.
    func reloadMetadata() throws
}

/// A store whose saved state lives only as long as the process (the in-memory store): its part
/// of a save across stores needs no save log, and it commits it last, once the stores that keep
/// their state have theirs, so that a failure of theirs leaves it unwritten too.
package protocol InMemoryOnlyStore: IncrementalStore {
    /// Whether this opening keeps its state only in memory.
    var keepsStateInMemoryOnly: Bool { get }
}

/// Changes a ``PreparingStore`` prepared: written, not yet visible.
package protocol PreparedChanges {
    /// Makes the changes visible.
    func commit() throws

    /// Drops the changes; a failure to reach the store is logged, as the store drops changes
    /// it never committed on its own (PostgreSQL: when the coordinator next finishes them).
    func rollBack()
}

/// The names under which stores that keep prepared changes prepare their part of a save across
/// stores: `strata:<store identifier>:<save number>:<anchor>`, where the anchor is the
/// identifier of the store beside whose save log the save is decided.
package enum PreparedChangesName {
    /// The name of the part of save `number` of the store with `identifier`.
    static func make(store identifier: String, anchor: String, number: Int64) -> String {
        "\(prefix(store: identifier))\(number):\(anchor)"
    }

    /// The start of every name of the store with `identifier`.
    package static func prefix(store identifier: String) -> String { "strata:\(identifier):" }

    /// The save number and anchor of `name`, a name of the store with `identifier`; `nil` for a
    /// name of another store or of another program.
    static func parse(_ name: String, store identifier: String) -> (number: Int64, anchor: String)? {
        let prefix = prefix(store: identifier)
        guard name.hasPrefix(prefix) else { return nil }
        let rest = name.dropFirst(prefix.count)
        guard let colon = rest.firstIndex(of: ":"), let number = Int64(rest[..<colon]) else { return nil }
        return (number, String(rest[rest.index(after: colon)...]))
    }
}
