/// A store without a local file that joins a save across stores all or nothing: it writes a
/// change set inside a transaction of its own without making it visible (it *prepares* it),
/// and commits or rolls it back once the coordinator has decided the save
/// (docs/STRIPED-SAVES.md). The built-in in-memory and PostgreSQL stores are such stores.
package protocol PreparingStore: IncrementalStore {
    /// Whether this opening can prepare changes: a whole-file store kept in memory by the same
    /// adapter as the in-memory store cannot, as its save writes its file.
    var preparesChanges: Bool { get }

    /// Whether prepared changes outlive the process that prepared them (PostgreSQL's prepared
    /// transactions): such changes are named, the save log records the decision, and a
    /// coordinator that adds the store again finishes them. Changes that die with the process
    /// (the in-memory store's) need no log.
    var keepsPreparedChanges: Bool { get }

    /// What names the database the store's transactions run in: stores with the same one
    /// (PostgreSQL stores in schemas of one database) write their parts of a save in one
    /// transaction, which any of them runs; `nil` when the store shares transactions with no
    /// other.
    var transactionDomain: String? { get }

    /// Checks each part of `parts` (this store's, and those of stores of the same
    /// ``transactionDomain``) against what its store holds (versions, uniqueness constraints)
    /// and writes them in one transaction without making them visible, under `name` when the
    /// store keeps prepared changes. Nothing is visible, and nothing is kept, when it throws.
    func prepare(_ parts: [(store: any IncrementalStore, changes: StoreChangeSet)], named name: String) throws
        -> any PreparedChanges

    /// Saves each part of `parts` (this store's, and those of stores of the same
    /// ``transactionDomain``) in one transaction, all or nothing.
    func save(jointly parts: [(store: any IncrementalStore, changes: StoreChangeSet)]) throws

    /// The names of the prepared changes of this store still waiting for a decision.
    func preparedChangeNames() throws -> [String]

    /// Commits (`commit`) or rolls back the prepared changes `name` that an earlier process
    /// left waiting.
    func finishPreparedChanges(named name: String, commit: Bool) throws

    /// Reads the store's metadata again: after prepared changes that another store of its
    /// ``transactionDomain`` committed.
    func reloadMetadata() throws
}

/// Changes a ``PreparingStore`` prepared: written, not yet visible.
package protocol PreparedChanges {
    /// Makes the changes visible. For changes that die with the process this cannot fail once
    /// they were prepared with the coordinator's write gate held.
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
