/// How each store of a save across stores takes its part, in what order the stores nest their
/// transactions, and whether the save needs the save log (docs/STRIPED-SAVES.md).
struct StripedSavePlan {
    /// How one store takes its part.
    enum Role: Equatable {
        /// It keeps its state only in memory (the in-memory store): its part is in no log, and
        /// it commits last, once the stores that keep their state have theirs.
        case inMemory
        /// It prepares its part in a transaction that outlives the process (PostgreSQL's
        /// prepared transactions) before the save is decided in the log, and commits it after.
        case preparesDurably
        /// It writes its part in its own write transaction and commits once the save is decided
        /// (``IncrementalStore/save(_:committingAfter:)``): after the log, or, without one, as
        /// the store that decides the save. A kill or a failure after the log leaves it a part
        /// that the log gives it when it is added again.
        case takesPart
        /// The store of the share at this index writes this store's part in its own
        /// transaction: they share a ``PreparingStore/transactionDomain``.
        case joins(Int)
    }

    /// Each store's role, in the order of the save's shares.
    let roles: [Role]
    /// Whether the save is decided in the save log beside the stores with files.
    let logs: Bool
    /// The shares whose stores open a transaction, outermost first: the in-memory stores
    /// (which commit last), then those that prepare durably, then the others, so that the
    /// innermost — the first to commit — is the first share that takes its part.
    let nesting: [Int]

    /// The plan of a save across `stores`.
    ///
    /// - Throws: ``StoreError/Code/unsupported`` naming the stores when two or more of them
    ///   keep their state without a local file, in transactions of their own.
    init(_ stores: [any IncrementalStore]) throws {
        var leaders: [String: Int] = [:]
        var joined: [Int: Int] = [:]
        for (index, store) in stores.enumerated() where !store.keepsLocalFile && !store.isInMemoryOnly {
            guard let domain = (store as? any PreparingStore)?.transactionDomain else { continue }
            if let leader = leaders[domain] { joined[index] = leader } else { leaders[domain] = index }
        }
        let files = stores.filter(\.keepsLocalFile).count
        let remote = stores.indices.filter {
            !stores[$0].keepsLocalFile && !stores[$0].isInMemoryOnly && joined[$0] == nil
        }
        let logs = files > 1 || (files == 1 && !remote.isEmpty)
        guard files > 0 || remote.count < 2 else {
            throw StoreError(
                code: .unsupported,
                message: "A save across " + remote.map { stores[$0].nameInMessages }.joined(separator: ", ")
                    + " cannot be all or nothing: none of them keeps a local file beside which to log the save, "
                    + "and they share no transaction. Save to each store on its own, or add a store with a local "
                    + "file to the save.")
        }
        self.logs = logs
        let roles = stores.enumerated().map { index, store -> Role in
            if let leader = joined[index] { return .joins(leader) }
            if store.isInMemoryOnly { return .inMemory }
            guard logs, !store.keepsLocalFile, store is any PreparingStore else { return .takesPart }
            return .preparesDurably
        }
        self.roles = roles
        nesting =
            roles.indices.filter { roles[$0] == .inMemory } + roles.indices.filter { roles[$0] == .preparesDurably }
            + roles.indices.filter { roles[$0] == .takesPart }.reversed()
    }

    /// The shares whose parts the store of the share at `index` writes: its own, and those of
    /// the stores that join it.
    func parts(writtenBy index: Int) -> [Int] {
        [index] + roles.indices.filter { roles[$0] == .joins(index) }
    }
}
