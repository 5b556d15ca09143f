import Foundation
import Strata

/// A merged state kept in a store, one `StrataSyncObject` record per object, with the store
/// object each names on a replica: loaded whole when a hub or replica opens, written back for
/// the objects a step changed, in the save that makes the step's other changes; call
/// ``didSave()`` after that save. Use it on its context's queue.
final class MergedRecords {
    /// The merged state.
    private(set) var state: MergeState
    /// The saved record of each object, by global ID.
    private var records: [GlobalID: ObjectID] = [:]
    /// Records inserted since the last save.
    private var inserted: [GlobalID: ManagedObject] = [:]
    private let context: ManagedObjectContext

    /// Loads the records `context` reads, binding the store objects they name into `identities`.
    init(rules: MergeRules, in context: ManagedObjectContext, identities: inout SyncIdentities) throws {
        self.context = context
        state = MergeState(rules: rules)
        for record in try context.fetch(FetchRequest<ManagedObject>(entityName: SyncModel.mergedObjectName)) {
            let id = try restore(record)
            guard records.updateValue(record.objectID, forKey: id) == nil else {
                throw Self.damaged(record, "names \(id), which another record names too")
            }
            if case .objectID(let objectID) = try record.value(forKey: "object") { identities.bind(id, to: objectID) }
        }
    }

    /// Reads again the records of `objects` that the store holds, as another process wrote them:
    /// a hub's store written by several servers.
    func reload(_ objects: Set<GlobalID>) throws {
        let ids = objects.map(\.uuid)
        for start in stride(from: 0, to: ids.count, by: Self.reloadBatch) {
            var request = FetchRequest<ManagedObject>(entityName: SyncModel.mergedObjectName)
            request.predicate = try FetchPredicate(
                format: "globalID IN %@", Array(ids[start..<min(start + Self.reloadBatch, ids.count)]))
            for record in try context.fetch(request) {
                records[try restore(record)] = record.objectID
            }
        }
    }

    private static let reloadBatch = 500

    /// Forgets the records inserted since the last save, after that save failed and its context
    /// was reset: the next write inserts them again.
    func discardUnsaved() { inserted.removeAll() }

    /// Puts the state `record` holds into ``state``, answering its global ID.
    private func restore(_ record: ManagedObject) throws -> GlobalID {
        guard case .uuid(let uuid) = try record.value(forKey: "globalID"),
            case .binary(let data) = try record.value(forKey: "state")
        else { throw Self.damaged(record, "has no global ID or state") }
        do {
            let source = "Sync record \(record.objectID.uriString)"
            state.restore(try MergedObject(data: data, source: source), for: GlobalID(uuid))
        } catch {
            throw Self.damaged(record, "holds a state that cannot be read: \(error)")
        }
        return GlobalID(uuid)
    }

    /// Applies `operation` to the state, noting its object to be written.
    @discardableResult
    func apply(_ operation: SyncOperation, changing changed: inout Set<GlobalID>) throws -> MergeOutcome {
        let outcome = try state.apply(operation)
        changed.insert(operation.object)
        return outcome
    }

    /// Writes the state of each of `objects` into its record, with the store object it names,
    /// in the context (which the caller saves).
    func write(_ objects: some Sequence<GlobalID>, naming objectID: (GlobalID) -> ObjectID? = { _ in nil }) throws {
        for id in objects {
            guard let merged = state.objects[id] else { continue }
            let record: ManagedObject
            if let new = inserted[id] {
                record = new
            } else if let saved = records[id] {
                record = try context.existingObject(with: saved)
            } else {
                record = try context.insertNewObject(forEntityName: SyncModel.mergedObjectName)
                try record.setValue(.uuid(id.uuid), forKey: "globalID")
                inserted[id] = record
            }
            try record.setValue(.binary(merged.binaryData()), forKey: "state")
            let object = objectID(id).map(AttributeValue.objectID) ?? .null
            if try record.value(forKey: "object") != object { try record.setValue(object, forKey: "object") }
        }
    }

    /// Takes the permanent IDs the last save gave the records it inserted.
    func didSave() {
        for (id, record) in inserted { records[id] = record.objectID }
        inserted.removeAll()
    }

    private static func damaged(_ record: ManagedObject, _ what: String) -> SyncError {
        SyncError(code: .corruptState, message: "Sync record \(record.objectID.uriString) \(what).")
    }
}
