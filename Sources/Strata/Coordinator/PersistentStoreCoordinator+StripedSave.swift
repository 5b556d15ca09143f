import Foundation

extension PersistentStoreCoordinator {
    /// The user metadata key in which a store records the number of the last striped save it
    /// applied (docs/STRIPED-SAVES.md). The coordinator sets it and keeps it when user keys are
    /// replaced; an app should leave it alone.
    public static let stripedSaveKey = "StrataStripedSave"

    /// The steps of a striped save, in order, for tests that stop the process at each.
    @_spi(FaultInjection) public enum StripedSaveStep: Sendable, Hashable {
        /// Every store's changes were validated and checked against what the stores hold.
        case checked
        /// Every store that prepares its part (in memory, PostgreSQL) has prepared it; the save
        /// is not decided yet.
        case prepared
        /// The first half of the save's record is written to the log: a partial record.
        case recordHalfWritten
        /// The save's record is written to the log, not yet flushed.
        case recordWritten
        /// The save's record is flushed to disk; the header deciding it is not written yet.
        case recordFlushed
        /// The header deciding the save is written to the log, not yet flushed: a process
        /// killed here has decided the save (the kernel holds the write).
        case headerWritten
        /// The save is in the log and flushed to disk: it is decided.
        case logged
        /// The store at this position of the save has committed its share.
        case committed(Int)
        /// Every store has committed, and the log was emptied.
        case finished
        /// A store added to the coordinator completed a save it missed from a log.
        case completedFromLog
    }

    /// Calls `probe` at each step of every striped save this coordinator makes, for tests that
    /// stop the process at a chosen step; `nil` stops calling.
    @_spi(FaultInjection) public func probeStripedSaves(_ probe: (@Sendable (StripedSaveStep) -> Void)?) {
        stripedSaveProbe.withLock { $0 = probe }
    }

    /// Makes the writes `writes` of the save log in `folder` fail as on a full disk, for tests of
    /// what a failed append leaves; an empty set stops.
    @_spi(FaultInjection) public func failSaveLogWrites(inFolder folder: URL, _ writes: Set<SaveLogWrite>) {
        let path = StripedSaveLog.url(inFolder: folder).path
        StripedSaveLog.failingWrites.withLock { $0[path] = writes.isEmpty ? nil : writes }
    }

    /// A write of the save log that ``failSaveLogWrites(inFolder:_:)`` can make fail.
    @_spi(FaultInjection) public enum SaveLogWrite: Sendable, Hashable {
        /// The new record of a save.
        case record
        /// The header that decides the save.
        case header
        /// The earlier header, written back after a failed or retracted append.
        case headerWrittenBack
    }

    /// Saves each store's changes, all or nothing across the stores, also when the process is
    /// killed at any instant of the save (docs/STRIPED-SAVES.md).
    ///
    /// The stores take their parts in two phases, nested: each store checks its part against
    /// what it holds (versions and uniqueness constraints) and writes it inside its own write
    /// transaction without committing, then lets the next store do the same
    /// (``IncrementalStore/save(_:committingAfter:)``); PostgreSQL prepares its part in a
    /// transaction that outlives the process (`PREPARE TRANSACTION`). A conflict in any store
    /// writes nothing anywhere and reports the conflicts of every store. When the save has parts
    /// that a kill or a failure could leave behind — two stores with local files, or one and a
    /// store on a server — the innermost step writes the save to the save log in the folders of
    /// the stores with files (`.strata-save-log`) and flushes it to disk: the save is decided.
    /// Then every store commits, each having recorded the save's number in its user metadata
    /// (``stripedSaveKey``) in the same transaction as its changes. A kill after the log leaves
    /// a save that adding the stores again completes, and a kill before it leaves nothing but
    /// prepared transactions that adding them again rolls back. Without a log, the one store
    /// that keeps its state decides the save by committing, and the in-memory stores take their
    /// part after it. A store that saves in one step (it implements only
    /// ``IncrementalStore/save(_:)``) cannot take part. A save that touches one store is
    /// ``save(_:to:)``.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unknownStore``,
    ///   ``StoreError/Code/readOnly``, ``StoreError/Code/invalidChange``,
    ///   ``StoreError/Code/unknownEntity`` or ``StoreError/Code/unsupported`` (a store that
    ///   saves in one step, two stores without a local file that keep their state, or a
    ///   PostgreSQL server without prepared transactions; nothing is written),
    ///   ``StoreError/Code/conflict`` listing the stale objects of every store, or
    ///   ``StoreError/Code/constraintConflict`` listing the clashes of every store (nothing is
    ///   written); what a store throws while preparing, or ``StoreError/Code/io`` when the log
    ///   cannot be written (nothing is written); ``StoreError/Code/savePending`` when a store
    ///   fails to commit its part once the save is decided: the other stores hold it, and that
    ///   store is removed from the coordinator and gets its part when it is next added.
    public func save(_ shares: [(store: any IncrementalStore, changes: StoreChangeSet)]) throws {
        guard shares.count > 1 else {
            if let share = shares.first { try save(share.changes, to: share.store) }
            return
        }
        var checked = try shares.map { share in
            (store: share.store, changes: try checkedChanges(share.changes, for: share.store))
        }
        let plan = try StripedSavePlan(checked.map(\.store))
        let folders = plan.logs ? checked.map(\.store.folder) : []
        try withWriteGates(of: checked.map(\.store)) {
            var logs: [StripedSaveLog] = []
            if plan.logs {
                // The logs' locks before the stores' transactions: another save across these
                // stores, in another coordinator or process, runs wholly before or after this one.
                logs = try StripedSaveLog.lockAll(folders: folders.compactMap { $0 })
                try completePendingSaves(in: logs, forAdded: checked.map(\.store))
            }
            var entry: (log: StripedSaveLog.Entry, anchor: String)?
            if let log = logs.first {
                let logged = checked.indices.filter { plan.roles[$0] != .inMemory }
                try createFiles(of: checked.map(\.store).filter(\.keepsLocalFile))
                let number = try nextSaveNumber(after: logs, stores: logged.map { checked[$0].store })
                for index in logged { checked[index].changes.userInfo = recording(number, in: checked[index]) }
                let anchor = checked.indices.first { folders[$0].map(log.serves(folder:)) == true }
                    .map { checked[$0].store.identifier }
                entry = (
                    StripedSaveLog.Entry(
                        number: number, changes: logged.map { (checked[$0].store.identifier, checked[$0].changes) }),
                    anchor ?? ""
                )
            }
            var run = StripedSaveRun(shares: checked, plan: plan, logs: logs, entry: entry)
            do {
                try takeParts(plan.nesting[...], in: &run)
            } catch let error as StoreError where error.code == .savePending {
                removeStores(missing: run.decidedInSomeLogs?.stores ?? [])
                throw error
            }
            if !run.unwritten.isEmpty, let failure = run.failure {
                guard let log = logs.first?.url else { throw failure }
                let unwritten = run.unwritten.map { checked[$0].store }
                removeStores(missing: unwritten)
                throw pendingSaveError(unwritten: unwritten, log: log, failure: failure)
            }
            for log in logs {
                do {
                    try log.clearAfterSave(schema: schema) { try hasApplied($0, storeWith: $1, among: stores) }
                } catch {
                    // The save is whole in every store: a log left full is found applied later.
                    logger.warning(
                        "Could not empty the save log after a save across stores",
                        metadata: ["log": "\(log.url.path)", "error": "\(error)"])
                }
            }
            probe(.finished)
        }
    }

    /// Where a save across stores stands while its stores hold their parts.
    private struct StripedSaveRun {
        let shares: [(store: any IncrementalStore, changes: StoreChangeSet)]
        let plan: StripedSavePlan
        let logs: [StripedSaveLog]
        let entry: (log: StripedSaveLog.Entry, anchor: String)?
        /// Whether the save is decided: in every log, or, without one, committed by the store
        /// that decides it. A store that fails to commit from then on misses its part.
        var isDecided = false
        /// The error of a save decided in some logs that could not be decided in all nor taken
        /// back, and the stores to remove once the others have let go of their parts.
        var decidedInSomeLogs: (error: StoreError, stores: [any IncrementalStore])?
        /// The stale objects and constraint clashes the stores found in their parts.
        var conflicts: [StoreError.Conflict] = []
        var clashes: [ConstraintConflict] = []
        /// The shares whose stores failed to commit their parts of the decided save, and the
        /// first failure.
        var unwritten: [Int] = []
        var failure: (any Error)?
    }

    /// Has the store of the first share of `nesting` write its part (with the parts of the
    /// stores that join it) and, before it commits, the rest of `nesting` write theirs; the
    /// innermost step decides the save in the logs. A store that finds conflicts lets the
    /// others look for theirs, and the innermost step then refuses the save with them all.
    private func takeParts(_ nesting: ArraySlice<Int>, in run: inout StripedSaveRun) throws {
        guard let index = nesting.first else { return try decide(&run) }
        let rest = nesting.dropFirst()
        let parts = run.plan.parts(writtenBy: index)
        let store = run.shares[index].store
        var reachedTheOthers = false
        do {
            switch run.plan.roles[index] {
            case .inMemory:
                try store.save(run.shares[index].changes) {
                    reachedTheOthers = true
                    do {
                        try takeParts(rest, in: &run)
                    } catch  where run.decidedInSomeLogs != nil {
                        // Decided, though not in every log: the in-memory part is taken now.
                    }
                }
            case .preparesDurably:
                let prepared = try prepareDurably(parts, of: run)
                reachedTheOthers = true
                do {
                    try takeParts(rest, in: &run)
                } catch {
                    // Decided in some logs: the prepared part waits for the store to be added again.
                    if run.decidedInSomeLogs == nil { prepared.rollBack() }
                    throw error
                }
                try prepared.commit()
            case .takesPart:
                let decision = {
                    reachedTheOthers = true
                    try self.takeParts(rest, in: &run)
                }
                if parts.count > 1, let store = store as? any PreparingStore {
                    try store.save(jointly: parts.map { run.shares[$0] }, committingAfter: decision)
                } else {
                    try store.save(run.shares[index].changes, committingAfter: decision)
                }
                if run.entry == nil { run.isDecided = true }
            case .joins:
                return try takeParts(rest, in: &run)
            }
        } catch let error as StoreError
            where !reachedTheOthers && [.conflict, .constraintConflict].contains(error.code)
        {
            run.conflicts += error.conflicts
            run.clashes += error.constraintConflicts
            return try takeParts(rest, in: &run)
        } catch {
            guard run.isDecided else { throw error }
            run.unwritten += parts
            run.failure = run.failure ?? error
            return
        }
        for part in parts {
            let changes = run.shares[part].changes
            rowCache.remove(changes.updated.map(\.objectID) + changes.deleted.map(\.objectID))
            announceWrite(to: run.shares[part].store)
            probe(.committed(part))
        }
        if let pending = run.decidedInSomeLogs { throw pending.error }
    }

    /// The innermost step of a save across stores, with every part written and none
    /// committed: refuses the save with the conflicts the stores found, or decides it in the
    /// logs.
    private func decide(_ run: inout StripedSaveRun) throws {
        if !run.conflicts.isEmpty {
            rowCache.remove(run.conflicts.map(\.objectID))
            let list = run.conflicts.map {
                "\($0.objectID) (expected version \($0.expectedVersion), stored \($0.storedVersion.map(String.init) ?? "none"))"
            }
            throw StoreError(
                code: .conflict,
                message:
                    "The save across stores conflicts with changes already saved: \(list.joined(separator: ", ")).",
                conflicts: run.conflicts)
        }
        guard run.clashes.isEmpty else {
            throw StoreError(
                code: .constraintConflict,
                message: "The save across stores would break uniqueness constraints: "
                    + run.clashes.map { "\($0.constraint.entityName)(\($0.constraint.keys.joined(separator: ", ")))" }
                    .joined(separator: ", ") + ".",
                constraintConflicts: run.clashes)
        }
        probe(.checked)
        probe(.prepared)
        guard let entry = run.entry else { return }
        do {
            try append(entry.log, to: run.logs)
        } catch let error as PartlyDecidedSave {
            let stores = storesOf(entry.log)
            let pending = pendingSaveError(unwritten: stores, log: error.log, failure: error.failure)
            run.decidedInSomeLogs = (pending, stores)
            throw pending
        }
        probe(.logged)
        run.isDecided = true
    }

    /// Has the store of the share at `index` of `run` prepare `parts` (its own and those of the
    /// stores that join it) in a transaction that outlives the process, named after the save.
    private func prepareDurably(_ parts: [Int], of run: StripedSaveRun) throws -> any PreparedChanges {
        let index = parts[0]
        guard let store = run.shares[index].store as? any PreparingStore, let entry = run.entry else {
            throw StoreError(
                code: .unsupported,
                message: "\(run.shares[index].store.nameInMessages) cannot prepare its part of a save across stores.")
        }
        let name = PreparedChangesName.make(store: store.identifier, anchor: entry.anchor, number: entry.log.number)
        return try store.prepare(parts.map { run.shares[$0] }, named: name)
    }
    /// `changes` validated for `store`, which must be added and writable.
    func checkedChanges(_ changes: StoreChangeSet, for store: any IncrementalStore) throws -> StoreChangeSet {
        guard let entityNames = state.withLock({ $0.stores.first { $0.store === store }?.entityNames }) else {
            throw StoreError(
                code: .unknownStore,
                message: "\(store.nameInMessages) is not added to the coordinator; add it before saving to it.")
        }
        guard !store.options.isReadOnly else {
            throw StoreError(code: .readOnly, message: "\(store.nameInMessages) was opened read-only.")
        }
        var changes = changes
        try changes.validate(
            schema: schema, entityNames: entityNames, storeIdentifier: store.identifier,
            storeName: store.nameInMessages)
        return changes
    }

    /// Makes the file of each of `stores` that has none yet, by saving its user keys: a store
    /// whose file a kill kept from being made would open as a new store, with a new
    /// identifier, which no log entry names.
    private func createFiles(of stores: [any IncrementalStore]) throws {
        for store in stores {
            guard let url = store.url, !FileManager.default.fileExists(atPath: url.path) else { continue }
            try store.save(StoreChangeSet(userInfo: store.metadata.userInfo))
        }
    }

    /// The number of the next striped save: above every number in `logs`, the last number
    /// each log kept, and every number `stores` recorded.
    private func nextSaveNumber(after logs: [StripedSaveLog], stores: [any IncrementalStore]) throws -> Int64 {
        let logged = try logs.flatMap { try $0.entries(schema: schema) }.map(\.number).max() ?? 0
        let last = logs.map(\.lastNumber).max() ?? 0
        return try StoredCounter.next(
            after: max(logged, last, stores.map(Self.recordedSave).max() ?? 0), "The number of the last striped save")
    }

    /// The number of the last striped save `store` applied; 0 before the first.
    static func recordedSave(of store: any IncrementalStore) -> Int64 {
        recordedSave(in: store.metadata)
    }

    /// The number of the last striped save a store with `metadata` applied; 0 before the first.
    static func recordedSave(in metadata: StoreMetadata) -> Int64 {
        if case .integer64(let number)? = metadata.userInfo[stripedSaveKey] { return number }
        return 0
    }

    /// The user keys `share` saves: its own, or the store's, with save `number` recorded.
    private func recording(
        _ number: Int64, in share: (store: any IncrementalStore, changes: StoreChangeSet)
    ) -> [String: AttributeValue] {
        var userInfo = share.changes.userInfo ?? share.store.metadata.userInfo
        userInfo[Self.stripedSaveKey] = .integer64(number)
        return userInfo
    }

    /// Runs `body` holding the write gates of `stores`, taken in identifier order so that two
    /// saves never wait for each other. With `added`, every store must still be added once the
    /// gates are held: ``removeAllStores(waitingUpTo:)`` may have closed one while the save waited.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unknownStore`` naming a store removed
    ///   meanwhile, before `body` runs.
    func withWriteGates<T>(of stores: [any IncrementalStore], added: Bool = true, _ body: () throws -> T) throws -> T {
        let gates = Set(stores.map(\.identifier)).sorted().map(writeGate(of:))
        for gate in gates { gate.lock() }
        defer { for gate in gates.reversed() { gate.unlock() } }
        if added {
            let removed = state.withLock { state in
                stores.first { store in !state.stores.contains { $0.store === store } }
            }
            if let removed {
                throw StoreError(
                    code: .unknownStore,
                    message: "\(removed.nameInMessages) was removed from the coordinator before the save reached "
                        + "it; nothing was written.")
            }
        }
        return try body()
    }

    /// The write gate of the store with `identifier`, which saves to it hold.
    func writeGate(of identifier: String) -> NSLock {
        writeGates.withLock { gates in
            if let gate = gates[identifier] { return gate }
            let gate = NSLock()
            gates[identifier] = gate
            return gate
        }
    }

    func probe(_ step: StripedSaveStep) {
        stripedSaveProbe.withLock { $0 }?(step)
    }
}

extension IncrementalStore {
    /// Whether the store keeps its state only in memory, without a local file (the in-memory
    /// store): its part of a save across stores is in no log.
    var isInMemoryOnly: Bool {
        guard !keepsLocalFile, let store = self as? any InMemoryOnlyStore else { return false }
        return store.keepsStateInMemoryOnly
    }
}

extension PersistentStore {
    /// Whether the store keeps a local file (it has a ``folder``): asked without making the
    /// folder's URL.
    var keepsLocalFile: Bool { url?.isFileURL == true }

    /// The folder of the store's local file, where its save log lives; `nil` for a store
    /// without one (in memory, or on a server).
    var folder: URL? {
        guard let url, url.isFileURL else { return nil }
        return url.deletingLastPathComponent()
    }
}
