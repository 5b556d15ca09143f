import Foundation
import Logging
import Strata

/// Keeps a replica's stores in step with a hub: pushes the changes saved to them, pulls the
/// other replicas' and makes the stores show what the merge rules resolve.
///
/// ```swift
/// let model = try SyncModel.replicaModel(for: appModel)
/// let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [SQLiteStore.type])
/// var options = StoreOptions()
/// options.tracksPersistentHistory = true
/// try coordinator.addStore(type: "SQLite", at: url, options: options)
/// let engine = try SyncEngine(coordinator: coordinator, hub: hub)
/// try await engine.syncNow()
/// ```
///
/// A sync collects the changes saved since the last one (from persistent history; every object
/// the first time), keeps them in the store as a push with an ID, sends the pushes the hub has
/// not acknowledged, then pulls the others' changes batch by batch. Each step is one save of the
/// replica's store, holding the objects it changed and the sync state that goes with them, so a
/// replica stopped at any point resumes where it was: a push sent again is applied once by the
/// hub, a batch pulled again is applied once by the rules. Changes saved between two syncs are
/// stamped when the sync collects them.
///
/// The engine saves through a context of its own. A save of the application's that conflicts
/// with a sync's makes that sync fail (``SyncEvent/failed(message:)``); the next one collects
/// the application's change first.
public actor SyncEngine {
    /// How an engine syncs.
    public struct Options: Sendable {
        /// The merge rules; every replica and the hub use the same. The engine takes their
        /// uniqueness constraints and required relationships from the replica's model
        /// (``MergeRules/constrained(by:)``).
        public var rules = MergeRules()
        /// The most bytes of operations one pull brings.
        public var pullByteLimit = 2 << 20
        /// How often a watching engine (``SyncEngine/start()``) looks for changes saved to the
        /// replica's stores; it pulls as soon as the hub's log moves.
        public var watchInterval: Duration = .seconds(1)
        /// How far ahead of this machine's clock a pulled timestamp may read before the clock
        /// stops following it.
        public var maximumDrift: Duration = .seconds(300)
        /// Resolvers by entity name, for objects of the entity and its sub-entities (the
        /// nearest entity that has one): when a pulled write supersedes one this replica made
        /// to an attribute or to-one relationship without seeing it, the entity's resolver sees
        /// the value before this replica's write, this replica's and the other's, and says
        /// which to keep (``SyncResolver``). Without one, the later write wins.
        public var resolvers: [String: SyncResolver] = [:]
        /// The wall clock, in milliseconds since 1970-01-01 UTC.
        public var wallClock: @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

        /// The default options.
        public init() {}
    }

    /// This replica's ID, chosen when it first synced and kept in its store.
    public nonisolated let replica: ReplicaID
    /// The version of the replica's model, which the hub is asked to serve
    /// (``SyncHub/admit(_:model:)``).
    public nonisolated let modelVersion: SyncModelVersion
    /// What the engine does, as it does it.
    public nonisolated let events: AsyncStream<SyncEvent>
    private let emit: AsyncStream<SyncEvent>.Continuation
    private let context: ManagedObjectContext
    private let hub: any SyncHub
    private let options: Options
    private let logger: Logger
    private var state: ReplicaState
    private var running: Task<Void, any Error>?
    private var watch: Task<Void, Never>?
    private var lastSync: Date?
    /// Whether the state in memory must be loaded again from the store before the next step.
    private var needsReload = false
    /// Whether the hub said it serves the replica's model, since the last failed sync.
    private var admitted = false

    /// An engine syncing the stores of `coordinator` through `hub`. The coordinator's model is
    /// made by ``SyncModel/replicaModel(for:)`` and its stores track persistent history.
    ///
    /// - Throws: ``SyncError`` with code ``SyncError/Code/unsupportedStore`` when the model
    ///   lacks the sync entities, ``SyncError/Code/corruptState`` when the sync state the store
    ///   holds cannot be read; the store's errors.
    public init(coordinator: PersistentStoreCoordinator, hub: any SyncHub, options: Options = Options()) throws {
        let context = ManagedObjectContext(coordinator: coordinator, name: "StrataSync")
        context.transactionAuthor = "StrataSync"
        self.context = context
        self.hub = hub
        self.options = options
        let state = try context.performAndWait {
            defer { context.reset() }
            return try Self.loadState(in: context, options)
        }
        self.state = state
        replica = state.replica
        modelVersion = try SyncModelVersion(of: coordinator.model)
        var logger = Logger(label: "strata.sync")
        logger[metadataKey: "replica"] = "\(state.replica)"
        self.logger = logger
        (events, emit) = AsyncStream.makeStream(of: SyncEvent.self, bufferingPolicy: .bufferingNewest(1024))
    }

    /// The ID of the replica in the stores of `coordinator` (made with
    /// ``SyncModel/replicaModel(for:)``), chosen and saved now if it has none yet: what a sync
    /// server's token for it names (`strata sync-token`).
    ///
    /// - Throws: ``SyncError`` with code ``SyncError/Code/unsupportedStore`` or
    ///   ``SyncError/Code/corruptState``; the store's errors.
    public static func replicaID(in coordinator: PersistentStoreCoordinator) throws -> ReplicaID {
        try ReplicaState.checkModel(of: coordinator)
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait {
            guard case .uuid(let id) = try ReplicaState.record(in: context).value(forKey: "replica") else {
                throw SyncError(code: .corruptState, message: "The replica's record has no replica ID.")
            }
            return ReplicaID(id)
        }
    }

    deinit {
        watch?.cancel()
        emit.finish()
    }

    /// Pushes the changes saved since the last sync and pulls the other replicas' until the end
    /// of the hub's log. A sync already under way is waited for first. When the hub refuses a
    /// push (a read-only token, a push over its limit, a clock too far ahead), the push stays
    /// pending, the pull still runs, and the refusal is thrown afterwards.
    ///
    /// - Throws: ``SyncError``, the hub's errors, the store's errors. What the steps before the
    ///   error saved stays; the next sync starts from there.
    public func syncNow() async throws {
        // Each sync waits for the one started before it, so syncs run one at a time, in order.
        let previous = running
        let task = Task {
            _ = try? await previous?.value
            do {
                try await self.cycle()
            } catch {
                // Before the next sync starts: it asks the hub to admit the replica again.
                self.admitted = false
                throw error
            }
        }
        running = task
        do {
            try await task.value
            if running == task { running = nil }
        } catch {
            if running == task { running = nil }
            logger.error("Sync failed: \(error)")
            emit.yield(.failed(message: "\(error)"))
            throw error
        }
    }

    /// Starts syncing whenever the hub's log moves, and every ``Options/watchInterval`` for
    /// changes saved to the replica's stores, until ``stop()``. Failures are reported as events
    /// and retried at the next wake-up.
    public func start() {
        guard watch == nil else { return }
        let interval = options.watchInterval
        let hub = hub
        watch = Task { [weak self] in
            let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in await hub.heads() { wake.yield() }
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: interval)
                        wake.yield()
                    }
                }
                for await _ in wakeups {
                    guard let self, !Task.isCancelled else { break }
                    try? await self.syncNow()
                }
                group.cancelAll()
            }
        }
        logger.info("Sync started.")
    }

    /// Stops syncing on changes; a sync under way finishes.
    public func stop() {
        watch?.cancel()
        watch = nil
        logger.info("Sync stopped.")
    }

    /// Where the engine stands.
    public func status() throws -> SyncStatus {
        let pending = try context.performAndWait {
            defer { context.reset() }
            return try context.count(for: FetchRequest<ManagedObject>(entityName: SyncModel.pendingPushName))
        }
        return SyncStatus(pendingPushes: pending, cursor: state.cursor, lastSync: lastSync, isWatching: watch != nil)
    }

    /// Every object this replica knows of that exists, resolved by the merge rules: what its
    /// stores show, once synced.
    public func resolvedObjects() -> [GlobalID: ResolvedObject] { state.resolvedObjects() }

    private func cycle() async throws {
        if !admitted {
            try await hub.admit(replica, model: modelVersion)
            admitted = true
        }
        let collected = try step { try $0.collectLocalChanges() }
        if collected > 0 { logger.debug("Collected \(collected) operations.") }
        // A push the hub refuses stays pending, and the pushes after it wait; the pull still runs.
        var refusal: SyncError?
        for (record, push) in try step({ try $0.pendingPushes() }) {
            let receipt: PushReceipt
            do {
                receipt = try await hub.push(push)
            } catch let error as SyncError where Self.refusals.contains(error.code) {
                refusal = error
                break
            }
            try step { try $0.acknowledge(record, push, receipt) }
            logger.debug("Pushed \(push.operations.count) operations at \(receipt.sequence).")
            emit.yield(.pushed(operations: push.operations.count, sequence: receipt.sequence))
        }
        while true {
            let batch = try await hub.pull(after: state.cursor, for: replica, byteLimit: options.pullByteLimit)
            let pulled = try step { try $0.apply(batch) }
            let count = batch.entries.reduce(0) { $0 + $1.push.operations.count }
            if count > 0 {
                logger.debug("Pulled \(count) operations up to \(batch.cursor).")
                emit.yield(.pulled(operations: count, cursor: batch.cursor))
            }
            for (operation, winner) in pulled.settled {
                emit.yield(.conflictSettled(operation: operation, winner: winner))
            }
            for message in pulled.unresolved {
                logger.warning("\(message)")
                emit.yield(.failed(message: message))
            }
            for (conflict, kept) in pulled.resolved {
                logger.debug("Resolved \(conflict.key) of \(conflict.object) as \(kept).")
                emit.yield(.conflictResolved(conflict, kept: kept))
            }
            for error in pulled.drift {
                logger.warning("\(error)")
                emit.yield(.clockDrift(error))
            }
            if batch.isComplete { break }
        }
        lastSync = Date()
        if let refusal { throw refusal }
    }

    /// The hub's answers that refuse one push, after which the engine still pulls.
    private static let refusals: Set<SyncError.Code> = [
        .malformedPush, .forgedReplica, .pushTooLarge, .pushReplayed, .entityMismatch, .clockDrift, .forbidden,
    ]

    /// Runs one step on the context's queue; after a failure, loads the state again from what
    /// the store holds (before the next step, if it cannot now).
    private func step<T>(_ body: (ReplicaState) throws -> T) throws -> T {
        try context.performAndWait {
            if needsReload {
                state = try Self.loadState(in: context, options)
                context.reset()
                needsReload = false
            }
            do {
                return try body(state)
            } catch {
                // What the state holds in memory may be ahead of the store; until it is loaded
                // again, no step runs.
                needsReload = true
                context.reset()
                if let reloaded = try? Self.loadState(in: context, options) {
                    state = reloaded
                    needsReload = false
                }
                context.reset()
                throw error
            }
        }
    }

    private static func loadState(in context: ManagedObjectContext, _ options: Options) throws -> ReplicaState {
        try ReplicaState(in: context, rules: options.rules, resolvers: options.resolvers) {
            HybridLogicalClock(replica: $0, maximumDrift: options.maximumDrift, wallClock: options.wallClock)
        }
    }
}
