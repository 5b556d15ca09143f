import Foundation
import Strata

/// A hub kept in a Strata store of any type — PostgreSQL when replicas on many machines reach
/// it, a file when they share one — reached directly by the process that opens it.
///
/// The store's model holds ``SyncModel/hubModel()``'s entities. Each push the hub takes is one
/// log entry and the merged objects it changed, saved together: a hub stopped at any point
/// holds a push whole or not at all, and a replica sends a push it has no receipt for again.
///
/// Several processes may write one hub's store — `strata sync-server`s behind a load balancer,
/// a server's instances syncing through it directly. Before it pushes or pulls, a hub reads
/// the log entries others added since it last looked, and the merged objects they changed; the
/// log's unique sequence numbers make two hubs that push at once take turns, the second trying
/// again after it has read the first's entry. A hub learns of the others' pushes at once, to
/// wake the replicas waiting on ``heads()``, when its store was added with
/// `postsRemoteChangeNotifications` (and so with `tracksPersistentHistory`): a PostgreSQL
/// store hears of them by `LISTEN`/`NOTIFY`. It then deletes its store's history older than
/// ``historyKept``.
public actor StoreHub: SyncHub {
    /// The most bytes of operations one push may hold, 8 MiB by default.
    public let pushByteLimit: Int
    /// How far ahead of the hub's wall clock an operation's timestamp may be.
    public let maximumDrift: Duration
    /// The versions of the application's model the hub serves; `nil`: every version.
    public let modelSupport: ModelSupport?
    /// How long the hub keeps its store's persistent history, when the store keeps one: other
    /// processes writing the hub read it to learn that the store was written, so keep it well
    /// above the time they take to look (their `remoteChangeInterval`) and the skew between
    /// their clocks. A process that finds it gone misses that wake-up only: it still reads the
    /// log before its next push or pull.
    public let historyKept: Duration
    /// The replicas admitted since the hub opened, when it has a ``modelSupport``: only they
    /// push and pull.
    private var admitted = Set<ReplicaID>()
    private let wallClock: @Sendable () -> Int64
    private let context: ManagedObjectContext
    private let rules: MergeRules
    private var merged: MergedRecords
    /// The last log entry the merged state in memory holds.
    private var head: Int64
    /// Reads what other processes push as the store announces their saves, from the first
    /// ``heads()``.
    private var remoteWatch: Task<Void, Never>?
    /// When the hub last deleted its store's old history.
    private var historyTrimmed = Date.distantPast
    /// Whether the merged state in memory must be loaded again before the next push.
    private var needsReload = false
    private var watchers: [UUID: AsyncStream<Int64>.Continuation] = [:]

    /// A hub in the stores of `coordinator`, merging under `rules`. Merging needs only their
    /// deletion rules; what ``resolvedObjects()`` shows follows the application's model when
    /// `rules` are constrained by it (``MergeRules/constrained(by:)``), as replicas' are.
    /// `modelSupport` says which versions of the application's model it serves (all when `nil`).
    /// `historyKept` is how long the store's persistent history is kept, an hour by default.
    ///
    /// - Throws: ``SyncError`` with code ``SyncError/Code/unsupportedStore`` when the
    ///   coordinator's model lacks the hub's entities, ``SyncError/Code/corruptState`` when a
    ///   record cannot be read back; the store's errors.
    public init(
        coordinator: PersistentStoreCoordinator, rules: MergeRules = MergeRules(), pushByteLimit: Int = 8 << 20,
        maximumDrift: Duration = .seconds(300), modelSupport: ModelSupport? = nil,
        historyKept: Duration = .seconds(3600),
        wallClock: @escaping @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }
    ) throws {
        for name in [SyncModel.logEntryName, SyncModel.mergedObjectName]
        where coordinator.schema.entitiesByName[name] == nil {
            throw SyncError(code: .unsupportedStore, message: "The hub's model has no '\(name)' entity.")
        }
        let context = ManagedObjectContext(coordinator: coordinator, name: "StrataSync hub")
        context.transactionAuthor = "StrataSync"
        self.context = context
        self.rules = rules
        self.pushByteLimit = pushByteLimit
        self.maximumDrift = maximumDrift
        self.modelSupport = modelSupport
        self.historyKept = historyKept
        self.wallClock = wallClock
        (merged, head) = try context.performAndWait {
            defer { context.reset() }
            return try Self.load(rules: rules, in: context)
        }
    }

    deinit { remoteWatch?.cancel() }

    /// How long a push is tried again while other processes take the log's next place first,
    /// each time a step behind them: 30 seconds.
    private static let contendedPushTime: Duration = .seconds(30)

    public func push(_ push: SyncPush) throws -> PushReceipt {
        try checkAdmitted(push.replica)
        guard !push.operations.isEmpty else {
            throw SyncError(code: .malformedPush, message: "Push \(push.id) from \(push.replica) has no operations.")
        }
        if let named = push.operations.first(where: { SyncModel.isSyncEntity($0.entity) }) {
            throw SyncError(
                code: .malformedPush,
                message: "Push \(push.id) from \(push.replica) names '\(named.entity)', one of sync's own entities.")
        }
        if let local = push.operations.first(where: \.setsAStoreObjectID) {
            throw SyncError(
                code: .malformedPush,
                message:
                    "Push \(push.id) from \(push.replica) sets \(local.object) to a store's object ID, which means "
                    + "nothing on another replica.")
        }
        let drift = Int64(maximumDrift.components.seconds) * 1000
        let latest = wallClock() + drift
        if let ahead = push.operations.first(where: { $0.stamp.milliseconds > latest }) {
            throw SyncError(
                code: .clockDrift,
                message: "Push \(push.id) from \(push.replica) holds an operation stamped \(ahead.stamp), more than "
                    + "\(drift) ms ahead of the hub's clock; check the replica's clock.")
        }
        if let forged = push.operations.first(where: { $0.stamp.replica != push.replica }) {
            throw SyncError(
                code: .forgedReplica,
                message: "Push \(push.id) from \(push.replica) holds an operation stamped by \(forged.stamp.replica).")
        }
        return try context.performAndWait {
            try reloadIfNeeded()
            context.reset()
            let deadline = ContinuousClock.now + Self.contendedPushTime
            while true {
                do {
                    try catchUp()
                } catch {
                    context.reset()
                    throw error
                }
                do {
                    return try take(push)
                } catch {
                    context.reset()
                    merged.discardUnsaved()
                    // Another process took the log's next place: read its entry, and try again.
                    if Self.lostItsPlace(error), ContinuousClock.now < deadline,
                        let stored = try? Self.lastSequence(in: context), stored > head
                    {
                        continue
                    }
                    try? reloadIfNeeded()
                    context.reset()
                    throw error
                }
            }
        }
    }

    /// Whether a push's save failed because another process saved first: the log's next place,
    /// or a merged object, taken.
    private static func lostItsPlace(_ error: any Error) -> Bool {
        if let error = error as? StoreError { return error.code == .constraintConflict || error.code == .conflict }
        if let error = error as? ContextError {
            return error.code == .constraintConflict || error.code == .mergeConflict
        }
        return false
    }

    /// Adds `push` to the log, after the entries the merged state holds; answers its receipt.
    /// Leaves the merged state in memory ahead of the store, and notes so, when the save fails.
    private func take(_ push: SyncPush) throws -> PushReceipt {
        // A replica that pulled from another copy of the hub, or through another server sharing
        // it, may say it saw past the end this hub has read.
        let seen = push.seen.map { min(max($0, 0), head) }
        let payload = PushPayload(seen: seen, operations: push.operations).binaryData()
        guard payload.count <= pushByteLimit else {
            throw SyncError(
                code: .pushTooLarge,
                message:
                    "Push \(push.id) from \(push.replica) holds \(payload.count) bytes; the hub takes \(pushByteLimit)."
            )
        }
        if let known = try entry(forPush: push.id) {
            guard case .uuid(push.replica.uuid) = try known.value(forKey: "replica") else {
                throw SyncError(
                    code: .forgedReplica,
                    message: "Push \(push.id) from \(push.replica) reuses another replica's ID.")
            }
            // Compared by operations, so that a push taken before pushes said what they saw is
            // a duplicate when sent again saying it.
            guard case .binary(let data) = try known.value(forKey: "operations"),
                (try? PushPayload(data: data, source: "Hub log entry"))?.operations == push.operations
            else {
                throw SyncError(
                    code: .pushReplayed,
                    message: "Push \(push.id) from \(push.replica) was taken before with other operations.")
            }
            let sequence = try Self.sequence(of: known)
            context.reset()
            return PushReceipt(sequence: sequence, wasDuplicate: true)
        }
        try checkEntities(of: push)
        // The merged state in memory is ahead of the store until the save succeeds, or it
        // is loaded again.
        needsReload = true
        var changed = Set<GlobalID>()
        for operation in push.operations { try merged.apply(operation, changing: &changed) }
        try merged.write(changed)
        let entry = try context.insertNewObject(forEntityName: SyncModel.logEntryName)
        try entry.setValue(.integer64(head + 1), forKey: "sequence")
        try entry.setValue(.uuid(push.id), forKey: "push")
        try entry.setValue(.uuid(push.replica.uuid), forKey: "replica")
        try entry.setValue(.binary(payload), forKey: "operations")
        try context.save()
        merged.didSave()
        context.reset()
        needsReload = false
        head += 1
        for watcher in watchers.values { watcher.yield(head) }
        trimHistory()
        return PushReceipt(sequence: head, wasDuplicate: false)
    }

    /// Refuses a replica whose model is older than the oldest version ``modelSupport`` serves.
    ///
    /// - Throws: ``SyncError/Code/modelTooOld``, naming the replica's version and the oldest served.
    public func admit(_ replica: ReplicaID, model: SyncModelVersion) throws {
        guard let modelSupport else { return }
        do {
            try modelSupport.admit(model, of: replica)
            admitted.insert(replica)
        } catch {
            admitted.remove(replica)
            throw error
        }
    }

    /// Refuses `replica` when the hub has a ``modelSupport`` and the replica has not been
    /// admitted since the hub opened: a replica that never says which version it runs (one
    /// made before hubs asked) is taken for an old one.
    private func checkAdmitted(_ replica: ReplicaID) throws {
        guard let modelSupport, !admitted.contains(replica) else { return }
        throw SyncError(
            code: .modelTooOld,
            message:
                "Replica \(replica) has not said which model version it runs; this hub serves \(modelSupport.oldestSupported) "
                + "and later.")
    }

    public func pull(after cursor: Int64, for replica: ReplicaID, byteLimit: Int) throws -> PullBatch {
        try checkAdmitted(replica)
        return try context.performAndWait {
            try catchUp()
            var request = FetchRequest<ManagedObject>(entityName: SyncModel.logEntryName)
            request.predicate = try FetchPredicate(format: "sequence > %@ AND replica != %@", cursor, replica.uuid)
            request.sortDescriptors = [FetchSortDescriptor("sequence")]
            request.fetchLimit = 256
            // Entries are read a few at a time, and only until the batch is full.
            request.fetchBatchSize = 16
            let found = try context.fetch(request)
            var entries: [HubEntry] = []
            var bytes = 0
            for record in found {
                guard case .binary(let payload) = try record.value(forKey: "operations"),
                    case .uuid(let push) = try record.value(forKey: "push"),
                    case .uuid(let sender) = try record.value(forKey: "replica")
                else { throw Self.damaged(record, "lacks its push, replica or operations") }
                if !entries.isEmpty, bytes + payload.count > byteLimit { break }
                bytes += payload.count
                let kept = try Self.payload(of: record)
                let sequence = try Self.sequence(of: record)
                entries.append(
                    HubEntry(
                        sequence: sequence,
                        push: SyncPush(
                            id: push, replica: ReplicaID(sender), operations: kept.operations, seen: kept.seen)))
            }
            context.reset()
            let isComplete = entries.count == found.count && found.count < 256
            return PullBatch(
                entries: entries,
                cursor: isComplete
                    ? max(head, cursor, entries.last?.sequence ?? cursor) : entries.last?.sequence ?? cursor,
                isComplete: isComplete)
        }
    }

    public func heads() -> AsyncStream<Int64> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        watchers[id] = continuation
        watchOthers()
        // The head others' pushes moved it to, when it can be read; else the last one known.
        try? refresh()
        continuation.yield(head)
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            Task { await self.stopWatching(id) }
        }
        return stream
    }

    /// Every object the hub knows of that exists, resolved by the merge rules: as of its last
    /// push, pull or ``refresh()``.
    public func resolvedObjects() -> [GlobalID: ResolvedObject] { merged.state.resolvedObjects() }

    /// Reads what other processes pushed (``refresh()``), then makes `context` show every object
    /// the hub resolves, as a replica that pulled the whole log shows them, and saves it: inserts
    /// them into its stores — empty ones, of the application's model — with their values,
    /// relationships and orders. What a replica's store
    /// holds can then be set against it (`strata dump --canonical` of a hub's store does so).
    /// Objects of entities the context's model lacks are left out.
    ///
    /// - Throws: the context's errors.
    public func show(in context: ManagedObjectContext) throws {
        try refresh()
        let state = merged.state
        try context.performAndWait {
            var objects = ReplicaObjects()
            try objects.show(state.objects.keys, resolvedBy: state, in: context)
            try context.save()
        }
    }

    /// The log's last sequence number: as of the hub's last push, pull or ``refresh()``.
    public var lastSequence: Int64 { head }

    /// Reads the log entries other processes added to the hub's store since this hub last
    /// looked, and the merged objects they changed.
    ///
    /// - Throws: ``SyncError/Code/corruptState`` when an entry or object cannot be read back; the
    ///   store's errors.
    public func refresh() throws {
        try context.performAndWait {
            defer { context.reset() }
            if needsReload {
                try reloadIfNeeded()
                for watcher in watchers.values { watcher.yield(head) }
            } else {
                try catchUp()
            }
        }
    }

    /// Loads the merged state again from the store when it is ahead of it (a save failed after
    /// the state took a push in). Run on the context's queue.
    private func reloadIfNeeded() throws {
        guard needsReload else { return }
        (merged, head) = try Self.load(rules: rules, in: context)
        needsReload = false
    }

    /// Starts reading what other processes push as the store announces their saves, when it
    /// was added to announce them.
    private func watchOthers() {
        let coordinator = context.coordinator
        guard remoteWatch == nil, coordinator.stores.contains(where: \.options.postsRemoteChangeNotifications) else {
            return
        }
        let changes = coordinator.remoteChanges
        remoteWatch = Task { [weak self] in
            for await _ in changes { await self?.othersPushed() }
        }
    }

    /// Reads what another process pushed, told by the store. A hub that cannot read it now
    /// reads it at its next push or pull.
    private func othersPushed() {
        try? refresh()
        trimHistory()
    }

    /// Deletes, at most once a minute, the history older than ``historyKept`` of the hub's store
    /// when it keeps one. A deletion that fails is tried again a minute later.
    private func trimHistory() {
        let now = Date()
        guard now.timeIntervalSince(historyTrimmed) >= 60 else { return }
        historyTrimmed = now
        let coordinator = context.coordinator
        // The hub's own stores: a replica's store on the same coordinator keeps its history.
        let stores = coordinator.stores.filter {
            $0.options.tracksPersistentHistory
                && coordinator.model.entityNames(inConfiguration: $0.configurationName).contains(SyncModel.logEntryName)
        }
        guard !stores.isEmpty else { return }
        let kept = Double(historyKept.components.seconds) + Double(historyKept.components.attoseconds) / 1e18
        _ = try? coordinator.execute(
            PersistentHistoryRequest(
                .delete(before: .date(now.addingTimeInterval(-kept))), resultType: .count, affectedStores: stores))
    }

    /// Brings the merged state in memory up to the log in the store: reads the entries after
    /// ``head`` that other processes added, and again the merged objects they name. Run on the
    /// context's queue.
    private func catchUp() throws {
        guard try Self.lastSequence(in: context) > head else { return }
        var request = FetchRequest<ManagedObject>(entityName: SyncModel.logEntryName)
        request.predicate = try FetchPredicate(format: "sequence > %@", head)
        request.sortDescriptors = [FetchSortDescriptor("sequence")]
        request.fetchBatchSize = 64
        var named = Set<GlobalID>()
        var last = head
        for record in try context.fetch(request) {
            for operation in try Self.payload(of: record).operations {
                named.insert(operation.object)
            }
            last = try Self.sequence(of: record)
        }
        try merged.reload(named)
        context.reset()
        head = last
        for watcher in watchers.values { watcher.yield(head) }
    }

    private func stopWatching(_ id: UUID) { watchers[id] = nil }

    /// Refuses a push naming an object as another entity than the hub knows it as, or than an
    /// earlier operation of the push names it as.
    private func checkEntities(of push: SyncPush) throws {
        var named: [GlobalID: String] = [:]
        for operation in push.operations {
            let known = named[operation.object] ?? merged.state.objects[operation.object]?.entity
            if let known, known != operation.entity {
                throw SyncError(
                    code: .entityMismatch,
                    message:
                        "Push \(push.id) from \(push.replica) names \(operation.object) as a '\(operation.entity)', "
                        + "which is known as a '\(known)'.")
            }
            named[operation.object] = operation.entity
        }
    }

    private func entry(forPush id: UUID) throws -> ManagedObject? {
        var request = FetchRequest<ManagedObject>(entityName: SyncModel.logEntryName)
        request.predicate = try FetchPredicate(format: "push == %@", id)
        request.fetchLimit = 1
        return try context.fetch(request).first
    }

    private static func load(rules: MergeRules, in context: ManagedObjectContext) throws -> (MergedRecords, Int64) {
        var identities = SyncIdentities()
        // The head first: records other processes write meanwhile are read as they are then,
        // and read again by the next catch-up.
        let head = try lastSequence(in: context)
        let merged = try MergedRecords(rules: rules, in: context, identities: &identities)
        return (merged, head)
    }

    /// The last sequence number of the log in the store, 0 when it is empty: read alone, without
    /// the entry's operations, since every push and pull asks.
    private static func lastSequence(in context: ManagedObjectContext) throws -> Int64 {
        var request = FetchRequest<ManagedObject>(entityName: SyncModel.logEntryName)
        request.sortDescriptors = [FetchSortDescriptor("sequence", ascending: false)]
        request.propertiesToFetch = ["sequence"]
        request.fetchLimit = 1
        guard let row = try context.fetchDictionaries(request).first else { return 0 }
        guard case .integer64(let sequence) = row["sequence"] else {
            throw SyncError(code: .corruptState, message: "The hub's last log entry has no sequence number.")
        }
        return sequence
    }

    /// The operations `entry` holds, and what its replica had seen.
    private static func payload(of entry: ManagedObject) throws -> PushPayload {
        guard case .binary(let data) = try entry.value(forKey: "operations") else {
            throw damaged(entry, "lacks its operations")
        }
        do {
            return try PushPayload(data: data, source: "Hub log entry \(entry.objectID.uriString)")
        } catch {
            throw damaged(entry, "holds operations that cannot be read: \(error)")
        }
    }

    private static func sequence(of entry: ManagedObject) throws -> Int64 {
        guard case .integer64(let sequence) = try entry.value(forKey: "sequence") else {
            throw damaged(entry, "has no sequence number")
        }
        return sequence
    }

    private static func damaged(_ record: ManagedObject, _ what: String) -> SyncError {
        SyncError(code: .corruptState, message: "Hub log entry \(record.objectID.uriString) \(what).")
    }
}
