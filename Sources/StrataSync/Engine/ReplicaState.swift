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

    /// Loads the state `context`'s stores hold, making the replica's record (and ID) the first
    /// time.
    init(in context: ManagedObjectContext, rules: MergeRules, clock makeClock: (ReplicaID) -> HybridLogicalClock)
        throws
    {
        self.context = context
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

    /// The most operations one push holds, unless one object's operations are more: about
    /// 1 MiB of JSON, well within a hub's limit.
    static let operationsPerPush = 4_096
    /// The most bytes of JSON one push holds, unless one object's operations are more.
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
        let before = merged.state.showingBefore(operations)
        var written = Set<GlobalID>()
        for operation in operations { try merged.apply(operation, changing: &written) }
        // A local change can make other objects show anew here too: a unique key set to
        // null parts a group, and the object that showed as the changed one shows again.
        let again = merged.state.objectsShownAnew(since: before)
        if !again.isEmpty { written.formUnion(try show(again)) }
        try merged.write(written, naming: objects.identities.objectID(for:))
        var order = try nextPushOrder()
        for payload in try encodedPushes(of: operations[...]) {
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

    /// `operations` as the JSON of pushes of up to ``operationsPerPush`` operations and
    /// ``bytesPerPush`` bytes, never cut between two operations of one object.
    private func encodedPushes(of operations: ArraySlice<SyncOperation>) throws -> [Data] {
        var payloads: [Data] = []
        for chunk in Self.pushes(of: Array(operations)) {
            let payload = try encoder.encode(Array(chunk))
            let middle = chunk.index(chunk.startIndex, offsetBy: chunk.count / 2)
            // Cut at the first object boundary after the middle, if there is one.
            guard payload.count > Self.bytesPerPush,
                let cut = chunk[middle...].indices.first(where: {
                    $0 > chunk.startIndex && chunk[$0].object != chunk[$0 - 1].object
                })
            else {
                payloads.append(payload)
                continue
            }
            payloads += try encodedPushes(of: chunk[..<cut]) + encodedPushes(of: chunk[cut...])
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
        let decoder = JSONDecoder()
        return try context.fetch(request).map { record in
            guard case .uuid(let id) = try record.value(forKey: "push"),
                case .binary(let data) = try record.value(forKey: "operations"),
                let operations = try? decoder.decode([SyncOperation].self, from: data)
            else {
                throw SyncError(
                    code: .corruptState, message: "The pending push \(record.objectID.uriString) cannot be read.")
            }
            return (record.objectID, SyncPush(id: id, replica: replica, operations: operations))
        }
    }

    /// Forgets the pending push `record`, which the hub acknowledged.
    func acknowledge(_ record: ObjectID) throws {
        try context.delete(try context.existingObject(with: record))
        try context.save()
        context.reset()
    }

    /// Applies a pulled batch, makes the store show what it changed (and the objects that were
    /// waiting for objects it brings) and moves the cursor past it, in one save. Answers the operations that lost to later ones, with the winner, and the
    /// drift errors of timestamps too far ahead.
    func apply(_ batch: PullBatch) throws -> (settled: [(SyncOperation, SyncTimestamp)], drift: [SyncError]) {
        // What the application saved since the last collection is collected first, in this
        // save: showing the pulled changes must not write over it.
        _ = try collect()
        var changed = Set<GlobalID>()
        var settled: [(SyncOperation, SyncTimestamp)] = []
        var drift: [SyncError] = []
        let before = merged.state.showingBefore(batch.entries.lazy.flatMap(\.push.operations))
        for entry in batch.entries {
            for operation in entry.push.operations {
                do {
                    try clock.receive(operation.stamp)
                } catch let error as SyncError where error.code == .clockDrift || error.code == .clockOverflow {
                    drift.append(error)
                }
                if case .superseded(let winner) = try merged.apply(operation, changing: &changed) {
                    settled.append((operation, winner))
                }
            }
        }
        // Objects that now show as one with others, or no longer do, those naming them, and
        // those requiring objects deleted or brought back.
        changed.formUnion(merged.state.objectsShownAnew(since: before))
        let shown = try show(changed.union(waiting))
        // Every object shown is written, so that the record of one it inserted names it.
        try merged.write(shown, naming: objects.identities.objectID(for:))
        cursor = batch.cursor
        try saveRecord()
        return (settled, drift)
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
        var changed = Set<ObjectID>()
        guard historyTokens != nil else {
            for store in stores {
                if let token = try store.lastHistoryToken() { tokens[store.identifier] = token }
            }
            for entity in coordinator.schema.entities where !SyncModel.isSyncEntity(entity.name) {
                var request = FetchRequest<ManagedObject>(entityName: entity.name)
                request.includesSubentities = false
                changed.formUnion(try context.fetchObjectIDs(request))
            }
            return (changed, tokens)
        }
        for store in stores {
            var request = PersistentHistoryRequest.fetchHistory(after: .token(tokens[store.identifier]))
            request.affectedStores = [store]
            guard case .transactions(let transactions) = try coordinator.execute(request) else { continue }
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
