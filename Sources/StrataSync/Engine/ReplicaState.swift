import Foundation
import Strata

/// What a replica keeps of sync in its own store, loaded: its ID and clock, its merged objects
/// and their store objects, its place in the hub's log and in its stores' history. Every step
/// writes what it changed in the save that makes its changes to the application's objects, so a
/// replica stopped at any point resumes from what its store holds. Use it on its context's
/// queue; after a step fails, reset the context and load it again.
final class ReplicaState {
    let replica: ReplicaID
    private(set) var clock: HybridLogicalClock
    private(set) var cursor: Int64
    private var objects: ReplicaObjects
    private let merged: MergedRecords
    /// The last history transaction collected of each store, by store identifier; `nil` before
    /// the first collection, which reads every object instead.
    private var historyTokens: [String: PersistentHistoryToken]?
    private let record: ObjectID
    private let context: ManagedObjectContext
    /// The objects whose references or members name objects the replica does not hold yet, and
    /// those whose deletion waits for them: shown again after each pull.
    private var waiting: Set<GlobalID> = []
    private let encoder = JSONEncoder()
    /// The resolvers of conflicts, by entity name.
    private let resolvers: [String: SyncResolver]
    /// The writes this replica made to keys of entities that have a resolver.
    private var localWrites = LocalWrites()

    /// The answers of a pull.
    struct Pulled {
        /// The pulled operations that lost to later ones, with the winner.
        var settled: [(SyncOperation, SyncTimestamp)] = []
        /// The errors of timestamps too far ahead.
        var drift: [SyncError] = []
        /// The conflicts resolvers settled by keeping another value than the remote write's.
        var resolved: [(SyncConflict, SyncValue)] = []
        /// Values resolvers kept that the store would not take.
        var unresolved: [String] = []
    }

    /// Loads the state `context`'s stores hold, making the replica's record (and ID) the first
    /// time.
    init(
        in context: ManagedObjectContext, rules: MergeRules, resolvers: [String: SyncResolver] = [:],
        clock makeClock: (ReplicaID) -> HybridLogicalClock
    ) throws {
        self.context = context
        self.resolvers = resolvers
        try Self.checkModel(of: context.coordinator)
        let record = try Self.record(in: context)
        self.record = record.objectID
        let decoder = JSONDecoder()
        func damaged(_ what: String) -> SyncError {
            SyncError(code: .corruptState, message: "The replica record \(record.objectID.uriString) \(what).")
        }
        guard case .uuid(let id) = try record.value(forKey: "replica"),
            case .integer64(let cursor) = try record.value(forKey: "cursor")
        else { throw damaged("has no replica ID or cursor") }
        replica = ReplicaID(id)
        self.cursor = cursor
        clock = makeClock(replica)
        do {
            if case .binary(let data) = try record.value(forKey: "clock") {
                clock.resume(after: try decoder.decode(SyncTimestamp.self, from: data))
            }
            if case .binary(let data) = try record.value(forKey: "historyTokens") {
                historyTokens = try decoder.decode([String: PersistentHistoryToken].self, from: data)
            }
        } catch {
            throw damaged("holds a clock or history tokens that cannot be read: \(error)")
        }
        var identities = SyncIdentities()
        merged = try MergedRecords(
            rules: rules.constrained(by: context.coordinator.schema), in: context, identities: &identities)
        objects = ReplicaObjects(identities: identities)
        encoder.outputFormatting = .sortedKeys
        waiting = waitingObjects(among: merged.state.objects.keys)
    }

    /// Refuses a coordinator whose model lacks the entities a replica keeps its sync state in.
    static func checkModel(of coordinator: PersistentStoreCoordinator) throws {
        for name in [SyncModel.mergedObjectName, SyncModel.replicaName, SyncModel.pendingPushName]
        where coordinator.schema.entitiesByName[name] == nil {
            throw SyncError(
                code: .unsupportedStore,
                message: "The replica's model has no '\(name)' entity; add its store with SyncModel.replicaModel(for:)."
            )
        }
    }

    /// The replica's record in `context`'s stores, made (with a new replica ID) and saved when
    /// there is none yet.
    static func record(in context: ManagedObjectContext) throws -> ManagedObject {
        let saved = try context.fetch(FetchRequest<ManagedObject>(entityName: SyncModel.replicaName))
        guard saved.count <= 1 else {
            throw SyncError(code: .corruptState, message: "The replica's store holds \(saved.count) replica records.")
        }
        if let record = saved.first { return record }
        let record = try context.insertNewObject(forEntityName: SyncModel.replicaName)
        try record.setValue(.uuid(UUID()), forKey: "replica")
        try context.save()
        return record
    }

    /// The most operations one push holds, unless one object's operations are more: a few
    /// hundred KiB, well within a hub's limit.
    static let operationsPerPush = 4_096
    /// The most bytes one push holds in sync's binary form, unless one object's operations are
    /// more: its JSON over HTTP stays within a sync server's 16 MiB.
    static let bytesPerPush = 2 << 20

    /// Turns the changes saved since the last collection into operations stamped now, applies
    /// them and keeps them as pushes for the hub (of up to ``operationsPerPush`` operations and
    /// ``bytesPerPush`` bytes, each object's together), with the history read so far, in one
    /// save. Answers the number of operations.
    func collectLocalChanges() throws -> Int {
        let count = try collect()
        try saveRecord()
        return count
    }

    /// ``collectLocalChanges()`` but the save.
    private func collect() throws -> Int {
        let (changed, tokens) = try changedObjects()
        var shown: [GlobalID: ResolvedObject?] = [:]
        for objectID in changed {
            if let object = try existingObject(objectID) {
                let id = objects.globalID(of: object)
                shown[id] = asMerged(try objects.shown(object), of: id, entity: object.entity)
            } else if let id = objects.identities.existingGlobalID(for: objectID) {
                shown[id] = .some(nil)
            }
        }
        var operations: [SyncOperation] = []
        if !shown.isEmpty { operations = try merged.state.operations(bringing: shown, at: try clock.tick()) }
        noteLocalWrites(operations)
        let before = merged.state.showingBefore(operations)
        var written = Set<GlobalID>()
        for operation in operations { try merged.apply(operation, changing: &written) }
        // A local change can make other objects show anew here too: a unique key set to
        // null parts a group, and the object that showed as the changed one shows again.
        let again = merged.state.objectsShownAnew(since: before)
        if !again.isEmpty { written.formUnion(try show(again)) }
        try merged.write(written, naming: objects.identities.objectID(for:))
        var order = try nextPushOrder()
        for payload in Self.encodedPushes(of: operations[...], seen: cursor) {
            let push = try context.insertNewObject(forEntityName: SyncModel.pendingPushName)
            try push.setValue(.uuid(UUID()), forKey: "push")
            try push.setValue(.integer64(order), forKey: "order")
            try push.setValue(.binary(payload), forKey: "operations")
            order += 1
        }
        historyTokens = tokens
        return operations.count
    }

    /// `shown` compared as the merged state has it: the references and members it lacks only
    /// because this replica does not hold their objects yet (their operations are in a batch
    /// still to come) put back, and the keys no operation has set that the store shows at
    /// their defaults (a replica on an older model, or a sparse insert) left out — so that a
    /// replica never pushes away what it has not seen, nor pushes its defaults.
    private func asMerged(_ shown: ResolvedObject, of id: GlobalID, entity: EntitySchema) -> ResolvedObject {
        guard let registers = merged.state.objects[id]?.registers, let resolved = merged.state.resolved(id) else {
            return shown
        }
        var values = shown.values
        for (key, value) in shown.values {
            if registers[key] == nil {
                let unset = SyncValue.attribute(SyncKeys.attribute(key, in: entity)?.defaultValue ?? .null)
                if value == unset || value == .reference(nil) { values[key] = nil }
            } else if case .reference(nil) = value, case .reference(let target?)? = resolved.values[key],
                !holds(target)
            {
                values[key] = .reference(target)
            }
        }
        var relationships = shown.relationships
        for (key, members) in shown.relationships {
            relationships[key] = members.union((resolved.relationships[key] ?? []).filter { !holds($0) })
        }
        return ResolvedObject(
            entity: shown.entity, values: values, relationships: relationships, orders: shown.orders)
    }

    /// Whether the replica's store holds the object `id` names.
    private func holds(_ id: GlobalID) -> Bool { objects.identities.objectID(for: id) != nil }

    /// The objects whose references or members name objects the replica does not hold yet, of
    /// those `candidates` names: to be shown again once they arrive.
    private func waitingObjects(among candidates: some Sequence<GlobalID>) -> Set<GlobalID> {
        var waiting = Set<GlobalID>()
        for id in candidates {
            guard let resolved = merged.state.resolved(id), shows(resolved.entity) else { continue }
            let targets = resolved.values.values.compactMap { value -> GlobalID? in
                if case .reference(let target?) = value { target } else { nil }
            }
            if targets.contains(where: { !holds($0) })
                || resolved.relationships.values.contains(where: { $0.contains { !holds($0) } })
            {
                waiting.insert(id)
            }
        }
        return waiting
    }

    /// Whether the replica's model has `entity`, one of the application's.
    private func shows(_ entity: String) -> Bool {
        !SyncModel.isSyncEntity(entity) && context.coordinator.schema.entitiesByName[entity] != nil
    }

    /// `operations` as the binary form of pushes of up to ``operationsPerPush`` operations and
    /// ``bytesPerPush`` bytes, never cut between two operations of one object: a push over the
    /// bytes is cut at the first object boundary after its middle, else the last one before it.
    static func encodedPushes(of operations: ArraySlice<SyncOperation>, seen: Int64) -> [Data] {
        var payloads: [Data] = []
        for chunk in pushes(of: Array(operations)) {
            let payload = PushPayload(seen: seen, operations: Array(chunk)).binaryData()
            let middle = chunk.index(chunk.startIndex, offsetBy: chunk.count / 2)
            let isBoundary = { (index: Int) in
                index > chunk.startIndex && chunk[index].object != chunk[index - 1].object
            }
            guard payload.count > bytesPerPush,
                let cut = chunk[middle...].indices.first(where: isBoundary)
                    ?? chunk[..<middle].indices.last(where: isBoundary)
            else {
                payloads.append(payload)
                continue
            }
            payloads += encodedPushes(of: chunk[..<cut], seen: seen) + encodedPushes(of: chunk[cut...], seen: seen)
        }
        return payloads
    }

    /// `operations` cut into pushes of up to ``operationsPerPush``, never between two
    /// operations of one object.
    static func pushes(of operations: [SyncOperation]) -> [ArraySlice<SyncOperation>] {
        var pushes: [ArraySlice<SyncOperation>] = []
        var start = operations.startIndex
        for index in operations.indices.dropFirst()
        where index - start >= operationsPerPush && operations[index].object != operations[index - 1].object {
            pushes.append(operations[start..<index])
            start = index
        }
        if start < operations.endIndex { pushes.append(operations[start...]) }
        return pushes
    }

    /// The pushes not yet acknowledged, oldest first.
    func pendingPushes() throws -> [(record: ObjectID, push: SyncPush)] {
        var request = FetchRequest<ManagedObject>(entityName: SyncModel.pendingPushName)
        request.sortDescriptors = [FetchSortDescriptor("order")]
        return try context.fetch(request).map { record in
            guard case .uuid(let id) = try record.value(forKey: "push"),
                case .binary(let data) = try record.value(forKey: "operations"),
                let payload = try? PushPayload(data: data, source: "The pending push \(record.objectID.uriString)")
            else {
                throw SyncError(
                    code: .corruptState, message: "The pending push \(record.objectID.uriString) cannot be read.")
            }
            return (
                record.objectID, SyncPush(id: id, replica: replica, operations: payload.operations, seen: payload.seen)
            )
        }
    }

    /// Forgets the pending push `record`, `push`, which the hub acknowledged with `receipt`.
    func acknowledge(_ record: ObjectID, _ push: SyncPush, _ receipt: PushReceipt) throws {
        try context.delete(try context.existingObject(with: record))
        try context.save()
        context.reset()
        for operation in push.operations {
            guard case .set(let key, _) = operation.change else { continue }
            localWrites.acknowledge(key, of: operation.object, stamp: operation.stamp, sequence: receipt.sequence)
        }
    }

    /// Keeps the writes of `operations`, about to apply, to keys of entities that have a
    /// resolver, with what their keys held before (among the objects that show as one, the
    /// latest write); forgets the writes of objects they delete.
    private func noteLocalWrites(_ operations: [SyncOperation]) {
        guard !resolvers.isEmpty else { return }
        for operation in operations where resolver(of: operation.entity) != nil {
            switch operation.change {
            case .set(let key, let value):
                let group = merged.state.uniquenessGroup(of: operation.object)
                localWrites.note(
                    value, to: key, of: operation.object, base: merged.state.registers(of: group)[key]?.value,
                    stamp: operation.stamp)
            case .delete: localWrites.forget(operation.object)
            default: continue
            }
        }
    }

    /// The resolver of `entity`, or of its nearest superentity that has one.
    private func resolver(of entity: String) -> SyncResolver? {
        let lineage = [entity] + (context.coordinator.schema.entitiesByName[entity]?.superentityNames ?? [])
        return lineage.lazy.compactMap { self.resolvers[$0] }.first
    }

    /// The conflicts of this replica's writes with the pulled writes that superseded them: for
    /// each key, the write that holds it after the batch, and what its replica had seen (each
    /// of `superseding`, by object and key). Objects that show as one give one conflict, on the
    /// object shown.
    private func conflicts(with superseding: [GlobalID: [String: (stamp: SyncTimestamp, seen: Int64?)]])
        -> [SyncConflict]
    {
        var found: [GlobalID: [String: SyncConflict]] = [:]
        for (object, keys) in superseding.sorted(by: { $0.key < $1.key }) {
            guard let merged = merged.state.objects[object] else { continue }
            for (key, write) in keys.sorted(by: { $0.key < $1.key }) {
                guard let register = merged.registers[key], register.stamp == write.stamp,
                    let conflict = localWrites.conflict(
                        of: key, of: object, entity: merged.entity, with: register.value, seen: write.seen)
                else { continue }
                let shown = self.merged.state.shownObject(object)
                if found[shown]?[key] == nil {
                    found[shown, default: [:]][key] = SyncConflict(
                        object: shown, entity: conflict.entity, key: key, base: conflict.base, local: conflict.local,
                        remote: conflict.remote)
                }
            }
        }
        return found.sorted { $0.key < $1.key }.flatMap { $0.value.sorted { $0.key < $1.key }.map(\.value) }
    }

    /// Lets the resolvers settle `conflicts`: a value kept other than the remote one is written
    /// to the store, to be collected as the replica's own change.
    private func resolve(_ conflicts: [SyncConflict], into pulled: inout Pulled) {
        for conflict in conflicts where merged.state.shows(conflict.object) {
            guard let resolver = resolver(of: conflict.entity), let kept = resolver(conflict), kept != conflict.remote
            else { continue }
            do {
                if try objects.write(kept, forKey: conflict.key, of: conflict.object, in: context) {
                    pulled.resolved.append((conflict, kept))
                } else {
                    pulled.unresolved.append(
                        "The resolver of '\(conflict.entity)' kept \(kept) for '\(conflict.key)' of \(conflict.object), "
                            + "which this replica cannot show.")
                }
            } catch {
                pulled.unresolved.append(
                    "The resolver of '\(conflict.entity)' kept \(kept) for '\(conflict.key)' of \(conflict.object), "
                        + "which the store refused: \(error)")
            }
        }
    }

    /// Applies a pulled batch, makes the store show what it changed (and the objects that were
    /// waiting for objects it brings) and moves the cursor past it, in one save. Answers the operations that lost to later ones, with the winner, and the
    /// drift errors of timestamps too far ahead.
    func apply(_ batch: PullBatch) throws -> Pulled {
        // What the application saved since the last collection is collected first, in this
        // save: showing the pulled changes must not write over it.
        _ = try collect()
        var changed = Set<GlobalID>()
        var pulled = Pulled()
        var superseding: [GlobalID: [String: (stamp: SyncTimestamp, seen: Int64?)]] = [:]
        let before = merged.state.showingBefore(batch.entries.lazy.flatMap(\.push.operations))
        for entry in batch.entries {
            for operation in entry.push.operations {
                do {
                    try clock.receive(operation.stamp)
                } catch let error as SyncError where error.code == .clockDrift || error.code == .clockOverflow {
                    pulled.drift.append(error)
                }
                if case .superseded(let winner) = try merged.apply(operation, changing: &changed) {
                    pulled.settled.append((operation, winner))
                } else if !localWrites.isEmpty {
                    switch operation.change {
                    case .set(let key, _) where localWrites.holds(operation.object, key):
                        superseding[operation.object, default: [:]][key] = (operation.stamp, entry.push.seen)
                    case .delete: localWrites.forget(operation.object)
                    default: break
                    }
                }
            }
        }
        // Objects that now show as one with others, or no longer do, those naming them, and
        // those requiring objects deleted or brought back.
        changed.formUnion(merged.state.objectsShownAnew(since: before))
        let shown = try show(changed.union(waiting))
        // A value a resolver keeps is the replica's own change, collected at the next sync.
        if !superseding.isEmpty { resolve(conflicts(with: superseding), into: &pulled) }
        // Every object shown is written, so that the record of one it inserted names it.
        try merged.write(shown, naming: objects.identities.objectID(for:))
        cursor = batch.cursor
        try saveRecord()
        return pulled
    }

    /// Makes the store show `ids` as the merged state resolves them, noting those that wait for
    /// objects the replica does not hold yet (and deletions that wait for them); answers `ids`.
    private func show(_ ids: Set<GlobalID>) throws -> Set<GlobalID> {
        let postponed = try objects.show(ids, resolvedBy: merged.state, in: context)
        waiting.subtract(ids)
        waiting.formUnion(waitingObjects(among: ids).union(postponed))
        return ids
    }

    /// Every object the replica knows of that exists, resolved by the merge rules.
    func resolvedObjects() -> [GlobalID: ResolvedObject] { merged.state.resolvedObjects() }

    /// Writes the cursor, clock and history tokens into the replica's record and saves the
    /// context.
    private func saveRecord() throws {
        let record = try context.existingObject(with: record)
        try record.setValue(.integer64(cursor), forKey: "cursor")
        try record.setValue(.binary(try encoder.encode(clock.last)), forKey: "clock")
        if let historyTokens {
            try record.setValue(.binary(try encoder.encode(historyTokens)), forKey: "historyTokens")
        }
        try context.save()
        objects.bindSavedObjects()
        merged.didSave()
        context.reset()
    }

    /// The application's objects saved since the last collection, and the history tokens that
    /// reach past them: every object the first time.
    private func changedObjects() throws -> (Set<ObjectID>, [String: PersistentHistoryToken]) {
        let coordinator = context.coordinator
        var tokens = historyTokens ?? [:]
        let stores = coordinator.stores.filter(\.options.tracksPersistentHistory)
        if let untracked = coordinator.stores.first(where: { !$0.options.tracksPersistentHistory }) {
            throw SyncError(
                code: .unsupportedStore,
                message: "The replica's store \(untracked.url?.path ?? untracked.identifier) does not track "
                    + "persistent history; add it with StoreOptions.tracksPersistentHistory.")
        }
        guard historyTokens != nil else { return try everyObject(in: stores) }
        var changed = Set<ObjectID>()
        for store in stores {
            // Read from the last transaction read, which must still be there: history deleted
            // past it (by the application, or dropped by a whole-file store's bound) may have
            // held changes never collected, and then every object is compared instead.
            let last = tokens[store.identifier]
            let before = last.map {
                PersistentHistoryToken(storeIdentifier: $0.storeIdentifier, transactionNumber: $0.transactionNumber - 1)
            }
            var request = PersistentHistoryRequest.fetchHistory(after: .token(before))
            request.affectedStores = [store]
            guard case .transactions(var transactions) = try coordinator.execute(request) else { continue }
            if let last {
                guard transactions.first?.token == last else { return try everyObject(in: stores) }
                transactions.removeFirst()
            }
            for transaction in transactions {
                for change in transaction.changes ?? [] where !SyncModel.isSyncEntity(change.changedObjectID.entityName)
                {
                    changed.insert(change.changedObjectID)
                }
                tokens[store.identifier] = transaction.token
            }
        }
        return (changed, tokens)
    }

    /// Every application object of the replica's stores and every object they held that has a
    /// global ID (those deleted since count as deletions), and the history tokens they reach.
    private func everyObject(in stores: [any IncrementalStore]) throws -> (
        Set<ObjectID>, [String: PersistentHistoryToken]
    ) {
        var tokens = historyTokens ?? [:]
        for store in stores {
            if let token = try store.lastHistoryToken() { tokens[store.identifier] = token }
        }
        // Objects of a store no longer added, or of an entity the model lost, are not deleted.
        let storeIdentifiers = Set(stores.map(\.identifier))
        let schema = context.coordinator.schema
        var objects = Set(
            self.objects.identities.boundObjectIDs.filter {
                !$0.isTemporary && storeIdentifiers.contains($0.namespace.storeIdentifier ?? "")
                    && schema.entitiesByName[$0.entityName] != nil
            })
        for entity in schema.entities where !SyncModel.isSyncEntity(entity.name) {
            var request = FetchRequest<ManagedObject>(entityName: entity.name)
            request.includesSubentities = false
            objects.formUnion(try context.fetchObjectIDs(request))
        }
        return (objects, tokens)
    }

    private func existingObject(_ objectID: ObjectID) throws -> ManagedObject? {
        do {
            let object = try context.existingObject(with: objectID)
            return object.isDeleted ? nil : object
        } catch let error as ContextError where error.code == .objectNotFound {
            return nil
        }
    }

    private func nextPushOrder() throws -> Int64 {
        var request = FetchRequest<ManagedObject>(entityName: SyncModel.pendingPushName)
        request.sortDescriptors = [FetchSortDescriptor("order", ascending: false)]
        request.fetchLimit = 1
        guard let last = try context.fetch(request).first, case .integer64(let order) = try last.value(forKey: "order")
        else { return 1 }
        return order + 1
    }
}
