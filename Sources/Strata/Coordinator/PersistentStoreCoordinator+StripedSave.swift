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
    /// Every store's changes are first validated and checked against what the store holds
    /// (versions and uniqueness constraints), so that a conflict in one store writes none of
    /// them and reports the conflicts of all. Stores that keep no local file prepare their
    /// part: the in-memory store checks it, PostgreSQL writes it in a prepared transaction
    /// (`PREPARE TRANSACTION`). When the save has parts that a kill or a failure could leave
    /// behind — two stores with local files, or one and a store on a server — the save is then
    /// written to the save log in the folders of the stores with files (`.strata-save-log`)
    /// and flushed to disk: it is decided. The prepared parts commit, then the other stores
    /// write theirs, each recording the save's number in its user metadata
    /// (``stripedSaveKey``) in the same write as its changes. A kill after the log leaves a
    /// save that adding the stores again completes, and a kill before it leaves prepared
    /// transactions that adding them again rolls back. Without a log, the one store that
    /// writes in one step decides the save, and the in-memory stores take their part after
    /// it. A save that touches one store is ``save(_:to:)``.
    ///
    /// - Throws: ``StoreError`` with code ``StoreError/Code/unknownStore``,
    ///   ``StoreError/Code/readOnly``, ``StoreError/Code/invalidChange``,
    ///   ``StoreError/Code/unknownEntity`` or ``StoreError/Code/unsupported`` (two stores
    ///   without a local file that write in one step, or a PostgreSQL server without prepared
    ///   transactions; nothing is written), ``StoreError/Code/conflict`` listing the stale
    ///   objects of every store, or ``StoreError/Code/constraintConflict`` listing the clashes
    ///   of every store (nothing is written); what a store throws while preparing, or
    ///   ``StoreError/Code/io`` when the log cannot be written (nothing is written);
    ///   ``StoreError/Code/savePending`` when a store fails to write its part once the save is
    ///   decided: the stores not yet written are removed from the coordinator, and each gets
    ///   its part when it is next added.
    public func save(_ shares: [(store: any IncrementalStore, changes: StoreChangeSet)]) throws {
        guard shares.count > 1 else {
            if let share = shares.first { try save(share.changes, to: share.store) }
            return
        }
        var checked = try shares.map { share in
            (store: share.store, changes: try checkedChanges(share.changes, for: share.store))
        }
        let plan = try StripedSavePlan(checked.map(\.store))
        try withWriteGates(of: checked.map(\.store)) {
            var logs: [StripedSaveLog] = []
            if plan.logs {
                // The logs' locks before the checks: another save across these stores, in
                // another coordinator or process, runs wholly before or after this one.
                logs = try StripedSaveLog.lockAll(folders: checked.compactMap(\.store.folder))
                try completePendingSaves(in: logs, forAdded: checked.map(\.store))
            }
            try checkAgainstStores(checked)
            probe(.checked)
            var entry: (log: StripedSaveLog.Entry, anchor: String)?
            if let log = logs.first {
                let logged = checked.indices.filter { plan.roles[$0] != .preparesInMemory }
                try createFiles(of: checked.map(\.store).filter { $0.folder != nil })
                let number = try nextSaveNumber(after: logs, stores: logged.map { checked[$0].store })
                for index in logged { checked[index].changes.userInfo = recording(number, in: checked[index]) }
                let anchor = checked.first { $0.store.folder.map(log.serves(folder:)) == true }?.store.identifier
                entry = (
                    StripedSaveLog.Entry(
                        number: number, changes: logged.map { (checked[$0].store.identifier, checked[$0].changes) }),
                    anchor ?? ""
                )
            }
            let prepared = try prepare(checked, plan: plan, decidingIn: logs, entry: entry)
            try commit(checked, plan: plan, prepared: prepared, log: logs.first?.url)
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

    /// Has every store of `shares` that prepares its part prepare it (with the parts of the
    /// stores that join its transaction), then decides `entry` in `logs` when there is one;
    /// rolls the prepared parts back when either fails, so that nothing is written. Returns the
    /// prepared parts by share index.
    private func prepare(
        _ shares: [(store: any IncrementalStore, changes: StoreChangeSet)], plan: StripedSavePlan,
        decidingIn logs: [StripedSaveLog], entry: (log: StripedSaveLog.Entry, anchor: String)?
    ) throws -> [Int: any PreparedChanges] {
        var prepared: [Int: any PreparedChanges] = [:]
        do {
            for index in shares.indices where [.preparesInMemory, .preparesDurably].contains(plan.roles[index]) {
                guard let store = shares[index].store as? any PreparingStore else { continue }
                let name = entry.map {
                    PreparedChangesName.make(store: store.identifier, anchor: $0.anchor, number: $0.log.number)
                }
                prepared[index] = try store.prepare(
                    plan.parts(writtenBy: index).map { shares[$0] }, named: name ?? "")
            }
            probe(.prepared)
            if let entry {
                try append(entry.log, to: logs)
                probe(.logged)
            }
        } catch let error as StoreError where error.code == .savePending {
            // Decided, though not in every log: the in-memory parts are taken now; the stores
            // that prepared durably were removed and finish theirs when added again.
            for (index, changes) in prepared where plan.roles[index] == .preparesInMemory {
                do {
                    try changes.commit()
                } catch {
                    logger.error(
                        "An in-memory store could not take its part of a decided save across stores",
                        metadata: ["store": "\(shares[index].store.nameInMessages)", "error": "\(error)"])
                }
            }
            throw error
        } catch {
            for changes in prepared.values { changes.rollBack() }
            throw error
        }
        return prepared
    }

    /// Commits the prepared parts and writes the others: before the in-memory parts when no log
    /// decided the save (the one store that writes in one step decides it), after the
    /// prepared parts otherwise.
    private func commit(
        _ shares: [(store: any IncrementalStore, changes: StoreChangeSet)], plan: StripedSavePlan,
        prepared: [Int: any PreparedChanges], log: URL?
    ) throws {
        let atOnce = shares.indices.filter { plan.roles[$0] == .writesAtOnce }
        let order = log == nil ? atOnce + prepared.keys.sorted() : prepared.keys.sorted() + atOnce
        for (position, index) in order.enumerated() {
            let parts = plan.parts(writtenBy: index)
            do {
                if let changes = prepared[index] {
                    try changes.commit()
                } else if parts.count > 1, let store = shares[index].store as? any PreparingStore {
                    try store.save(jointly: parts.map { shares[$0] })
                } else {
                    try shares[index].store.save(shares[index].changes)
                }
            } catch {
                guard let log else {
                    for index in order[position...] { prepared[index]?.rollBack() }
                    throw error
                }
                let unwritten = order[position...].flatMap { plan.parts(writtenBy: $0) }.map { shares[$0].store }
                throw decidedSave(unwritten: unwritten, log: log, failure: error)
            }
            for part in parts {
                let changes = shares[part].changes
                rowCache.remove(changes.updated.map(\.objectID) + changes.deleted.map(\.objectID))
                announceWrite(to: shares[part].store)
                probe(.committed(part))
            }
        }
    }

    /// Appends `entry` to every log of `logs`, deciding it in each. When one cannot, the logs
    /// that decided it take it back, so that no store is written and the save is not decided
    /// anywhere; a log that cannot take it back keeps it decided, and its stores are removed
    /// from the coordinator to get it when added again (``StoreError/Code/savePending``).
    private func append(_ entry: StripedSaveLog.Entry, to logs: [StripedSaveLog]) throws {
        for (index, log) in logs.enumerated() {
            do {
                try log.append(entry, probe: probe)
            } catch let error as StoreError where error.code == .savePending {
                throw decidedSave(unwritten: storesOf(entry), log: log.url, failure: error)
            } catch {
                for decided in logs[..<index].reversed() {
                    do {
                        try decided.retract()
                    } catch let retraction {
                        throw decidedSave(unwritten: storesOf(entry), log: decided.url, failure: retraction)
                    }
                }
                throw error
            }
        }
    }

    /// The added stores `entry` writes to.
    private func storesOf(_ entry: StripedSaveLog.Entry) -> [any IncrementalStore] {
        let identifiers = Set(entry.changes.map(\.storeIdentifier))
        return stores.filter { identifiers.contains($0.identifier) }
    }

    /// The error of a save that was logged but that `unwritten`'s first store failed to
    /// write: the save is decided, so the stores with files among `unwritten` are removed from
    /// the coordinator (no other save reaches them before they have it) and get it when they
    /// are next added.
    private func decidedSave(unwritten: [any IncrementalStore], log: URL, failure: any Error) -> StoreError {
        let removed = unwritten.filter { !$0.preparesInMemory }
        for store in removed {
            do {
                try remove(store)
            } catch {
                logger.warning(
                    "Could not remove a store that missed a save across stores", metadata: ["error": "\(error)"])
            }
        }
        return StoreError(
            code: .savePending,
            message: "\(unwritten[0].nameInMessages) could not write its part of a save across stores after the save "
                + "was logged in '\(log.path)': \(failure) The save is decided: the stores written hold it, and "
                + removed.map(\.nameInMessages).joined(separator: ", ")
                + (removed.count == 1 ? " was" : " were")
                + " removed from the coordinator and get it when added again.",
            underlying: failure)
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

    /// Checks every share's versions and uniqueness constraints against what its store holds,
    /// reporting the conflicts of every store together.
    private func checkAgainstStores(_ shares: [(store: any IncrementalStore, changes: StoreChangeSet)]) throws {
        var conflicts: [StoreError.Conflict] = []
        var clashes: [ConstraintConflict] = []
        for (store, changes) in shares {
            let ids = (changes.inserted + changes.updated).map(\.objectID) + changes.deleted.map(\.objectID)
            let versions = Dictionary(
                try store.snapshots(for: ids).map { ($0.objectID, $0.version) }, uniquingKeysWith: { first, _ in first }
            )
            do {
                try changes.checkVersions { versions[$0] }
            } catch let error as StoreError where error.code == .conflict {
                conflicts += error.conflicts
            }
            do {
                try checkUniqueness(of: changes, in: store)
            } catch let error as StoreError where error.code == .constraintConflict {
                clashes += error.constraintConflicts
            }
        }
        if !conflicts.isEmpty {
            rowCache.remove(conflicts.map(\.objectID))
            let list = conflicts.map {
                "\($0.objectID) (expected version \($0.expectedVersion), stored \($0.storedVersion.map(String.init) ?? "none"))"
            }
            throw StoreError(
                code: .conflict,
                message:
                    "The save across stores conflicts with changes already saved: \(list.joined(separator: ", ")).",
                conflicts: conflicts)
        }
        guard clashes.isEmpty else {
            throw StoreError(
                code: .constraintConflict,
                message: "The save across stores would break uniqueness constraints: "
                    + clashes.map { "\($0.constraint.entityName)(\($0.constraint.keys.joined(separator: ", ")))" }
                    .joined(separator: ", ") + ".",
                constraintConflicts: clashes)
        }
    }

    /// Checks `changes` against the uniqueness constraints and the objects `store` holds.
    private func checkUniqueness(of changes: StoreChangeSet, in store: any IncrementalStore) throws {
        var scan = UniqueValuesScan { keys in
            try keys.entityNames.flatMap { name -> [Snapshot] in
                guard
                    case .snapshots(let found) = try store.execute(
                        StoreFetchRequest(entityName: name, includesSubentities: false))
                else { return [] }
                return found
            }
        }
        try changes.checkUniqueness(schema: schema, storeName: store.nameInMessages) { keys, values in
            let predicate = keys.predicate(matching: values)
            guard store.predicateFeatures.isSuperset(of: predicate.requiredFeatures) else {
                return try scan.matches(keys, values)
            }
            let request = StoreFetchRequest(entityName: keys.entityName, predicate: predicate, resultType: .objectIDs)
            guard case .objectIDs(let ids) = try store.execute(request) else { return [] }
            return ids
        }
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
    /// saves never wait for each other.
    func withWriteGates<T>(of stores: [any IncrementalStore], _ body: () throws -> T) throws -> T {
        let gates = writeGates.withLock { gates in
            Set(stores.map(\.identifier)).sorted().map { identifier in
                if let gate = gates[identifier] { return gate }
                let gate = NSLock()
                gates[identifier] = gate
                return gate
            }
        }
        for gate in gates { gate.lock() }
        defer { for gate in gates.reversed() { gate.unlock() } }
        return try body()
    }

    func probe(_ step: StripedSaveStep) {
        stripedSaveProbe.withLock { $0 }?(step)
    }
}

extension IncrementalStore {
    /// Whether the store keeps no local file and prepares its part of a save across stores in
    /// memory (the in-memory store): such a part is in no log.
    var preparesInMemory: Bool {
        guard folder == nil, let store = self as? any PreparingStore else { return false }
        return store.preparesChanges && !store.keepsPreparedChanges
    }
}

extension PersistentStore {
    /// The folder of the store's local file, where its save log lives; `nil` for a store
    /// without one (in memory, or on a server).
    var folder: URL? {
        guard let url, url.isFileURL else { return nil }
        return url.deletingLastPathComponent()
    }
}
