/// How each store of a save across stores takes its part, and whether the save needs the save
/// log (docs/STRIPED-SAVES.md).
struct StripedSavePlan {
    /// How one store takes its part.
    enum Role: Equatable {
        /// It prepares its part, which dies with the process (the in-memory store), and commits
        /// it once the others have theirs or the save is decided.
        case preparesInMemory
        /// It prepares its part durably (PostgreSQL's prepared transactions) before the save is
        /// decided in the log, and commits it after.
        case preparesDurably
        /// It writes its part in one step: before the save is decided when it is the one store
        /// that does (no log), after it otherwise, and then gets it from the log when a kill or
        /// a failure kept it from it.
        case writesAtOnce
        /// The store of the share at this index writes this store's part in its own
        /// transaction: they share a ``PreparingStore/transactionDomain``.
        case joins(Int)
    }

    /// Each store's role, in the order of the save's shares.
    let roles: [Role]
    /// Whether the save is decided in the save log beside the stores with files.
    let logs: Bool

    /// The plan of a save across `stores`.
    ///
    /// - Throws: ``StoreError/Code/unsupported`` naming the stores when two or more of them
    ///   write in one step, in transactions of their own, and none keeps a local file for the
    ///   log.
    init(_ stores: [any IncrementalStore]) throws {
        var leaders: [String: Int] = [:]
        var joined: [Int: Int] = [:]
        for (index, store) in stores.enumerated() where store.folder == nil && !store.preparesInMemory {
            guard let preparing = store as? any PreparingStore, preparing.preparesChanges,
                let domain = preparing.transactionDomain
            else { continue }
            if let leader = leaders[domain] { joined[index] = leader } else { leaders[domain] = index }
        }
        let files = stores.filter { $0.folder != nil }.count
        let remote = stores.indices.filter {
            stores[$0].folder == nil && !stores[$0].preparesInMemory && joined[$0] == nil
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
        roles = stores.enumerated().map { index, store in
            if let leader = joined[index] { return .joins(leader) }
            if store.preparesInMemory { return .preparesInMemory }
            guard logs, store.folder == nil, let preparing = store as? any PreparingStore, preparing.preparesChanges
            else { return .writesAtOnce }
            return .preparesDurably
        }
    }

    /// The shares whose parts the store of the share at `index` writes: its own, and those of
    /// the stores that join it.
    func parts(writtenBy index: Int) -> [Int] {
        [index] + roles.indices.filter { roles[$0] == .joins(index) }
    }
}
