import CStrataLMDB
import Foundation
import Strata

/// Reads and writes the records of one store inside one transaction, remembering the
/// snapshots it decoded so that a fetch following relationships decodes each record once.
final class LMDBObjectLoader {
    let store: LMDBStore
    let transaction: LMDBTransaction
    /// The external data files a write transaction writes and makes obsolete; `nil` for reads.
    let externalWrites: ExternalBinaryDataWrites?
    private var cache: [ObjectID: Snapshot?] = [:]
    /// The marked values (``ExternalBinaryData``) of the external-storage attributes of the
    /// records decoded or written, by object and attribute.
    private(set) var externalMarks: [ObjectID: [String: [UInt8]]] = [:]
    /// The first error met while the evaluator followed a relationship, which cannot throw.
    private(set) var failure: (any Error)?

    init(store: LMDBStore, transaction: LMDBTransaction, externalWrites: ExternalBinaryDataWrites? = nil) {
        self.store = store
        self.transaction = transaction
        self.externalWrites = externalWrites
    }

    /// The records database and primary key of `objectID`; `nil` for an object this store
    /// cannot hold.
    func location(of objectID: ObjectID) -> (root: String, database: MDB_dbi, key: Int64)? {
        guard objectID.storeIdentifier == store.identifier,
            let entity = store.model.entitiesByName[objectID.entityName],
            store.entityNames.contains(entity.name), let database = store.databases.records[entity.rootEntityName],
            let key = LMDBLayout.primaryKey(of: objectID)
        else { return nil }
        return (entity.rootEntityName, database, key)
    }

    /// Whether the store holds `objectID`: its record is there, of its entity. Reads the
    /// record's entity number only, unless the record was decoded already.
    func holds(_ objectID: ObjectID) throws -> Bool {
        if let cached = cache[objectID] { return cached != nil }
        guard let (_, database, key) = location(of: objectID),
            let bytes = try transaction.get(database, LMDBLayout.key(key))
        else { return false }
        return try bytes.withUnsafeBytes { try store.layout.entityName(ofRecord: $0, primaryKey: key) }
            == objectID.entityName
    }

    /// The stored snapshot of `objectID`, or `nil`.
    func snapshot(of objectID: ObjectID) throws -> Snapshot? {
        if let cached = cache[objectID] { return cached }
        guard let (root, database, key) = location(of: objectID) else { return nil }
        var snapshot: Snapshot?
        if let bytes = try transaction.get(database, LMDBLayout.key(key)) {
            let decoded = try decode(bytes, primaryKey: key, root: root)
            snapshot = decoded.objectID == objectID ? decoded : nil
        }
        cache[objectID] = snapshot
        return snapshot
    }

    /// Decodes one record, counting it.
    func decode(_ bytes: [UInt8], primaryKey: Int64, root: String) throws -> Snapshot {
        store.statistics.recordDecoded()
        var snapshot = try store.layout.decode(bytes, primaryKey: primaryKey, root: root)
        if let names = store.externalAttributes[snapshot.objectID.entityName] {
            snapshot = try unmarked(snapshot, names)
        }
        cache[snapshot.objectID] = snapshot
        return snapshot
    }

    /// `snapshot` with the marked values of its attributes `names` replaced by the values, the
    /// marks noted.
    private func unmarked(_ snapshot: Snapshot, _ names: [String]) throws -> Snapshot {
        var marks: [String: [UInt8]] = [:]
        var values: [String: AttributeValue] = [:]
        for name in names {
            guard case .binary(let marked)? = snapshot.values[name] else { continue }
            marks[name] = Array(marked)
            values[name] = .binary(
                try store.externalData.value(inMarked: marked, place: place(snapshot.objectID, name)))
        }
        externalMarks[snapshot.objectID] = marks
        return Snapshot(
            objectID: snapshot.objectID, values: snapshot.values.replacing(values), version: snapshot.version)
    }

    /// `snapshot` as its record keeps it: the values of its attributes `names` marked, their
    /// files written (and those they replace noted as obsolete) through ``externalWrites``.
    func marked(_ snapshot: Snapshot, _ names: [String]) throws -> Snapshot {
        guard let writes = externalWrites else {
            preconditionFailure("Records are written only in write transactions.")
        }
        let previous = externalMarks[snapshot.objectID] ?? [:]
        var marks: [String: [UInt8]] = [:]
        var values: [String: AttributeValue] = [:]
        for name in names {
            guard case .binary(let data)? = snapshot.values[name] else {
                try store.externalData.clear(previous[name], writes: writes, place: place(snapshot.objectID, name))
                continue
            }
            let marked = try store.externalData.marked(
                data, replacing: previous[name], writes: writes, place: place(snapshot.objectID, name))
            marks[name] = marked
            values[name] = .binary(Data(marked))
        }
        externalMarks[snapshot.objectID] = marks
        return Snapshot(
            objectID: snapshot.objectID, values: snapshot.values.replacing(values), version: snapshot.version)
    }

    /// Notes the files of the external-storage attributes of `objectID`, whose record is removed,
    /// as obsolete.
    func removeExternalValues(of objectID: ObjectID) throws {
        guard let writes = externalWrites, let marks = externalMarks.removeValue(forKey: objectID) else { return }
        for (name, mark) in marks {
            try store.externalData.clear(mark, writes: writes, place: place(objectID, name))
        }
    }

    /// Names the store, entity, attribute `name` and object `objectID`, for errors about its
    /// external data.
    private func place(_ objectID: ObjectID, _ name: String) -> String {
        "\(store.storeName), '\(objectID.entityName).\(name)' of \(objectID),"
    }

    /// The key of the members of `relationship` of `objectID` in the to-many database.
    func membersKey(of objectID: ObjectID, relationship: String) -> [UInt8]? {
        guard let key = LMDBLayout.primaryKey(of: objectID) else { return nil }
        return LMDBLayout.prefix(entity: objectID.entityName, property: relationship) + LMDBLayout.key(key)
    }

    /// The members of the to-many `relationship` of `objectID`, in order.
    func members(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
        guard let key = membersKey(of: objectID, relationship: relationship),
            let bytes = try transaction.get(store.databases.toMany, key)
        else { return [] }
        return try store.layout.decodeMembers(bytes, of: "the members of '\(relationship)' of \(objectID)")
    }

    /// Resolves a key for the evaluator, remembering the first error instead of throwing.
    func resolving<T>(_ fallback: T, _ body: () throws -> T) -> T {
        do {
            return try body()
        } catch {
            if failure == nil { failure = error }
            return fallback
        }
    }
}

/// Lets the evaluator read a decoded record, following its relationships to other records in
/// the same transaction.
struct LMDBRecordResolver: KeyValueResolving {
    let snapshot: Snapshot
    let loader: LMDBObjectLoader

    func resolvedValue(forKey key: String) -> ResolvedValue? {
        guard let entity = loader.store.model.entitiesByName[snapshot.objectID.entityName] else { return nil }
        if let relationship = entity.relationshipsByName[key] {
            if relationship.isToMany {
                let members = loader.resolving([]) {
                    try loader.members(of: snapshot.objectID, relationship: key).compactMap(resolver)
                }
                return .objects(members)
            }
            guard case .objectID(let target)? = snapshot.values[key],
                let destination = loader.resolving(nil, { try resolver(of: target) })
            else { return .value(.null) }
            return .object(destination)
        }
        guard entity.attributesByName[key] != nil else { return nil }
        return .value(snapshot.values[key] ?? .null)
    }

    var objectIdentity: AttributeValue { .objectID(snapshot.objectID) }

    /// What the evaluator reads for the related object `target`: its record, or a
    /// `ForeignObjectReference` when it is in another store; `nil` when it is gone.
    private func resolver(of target: ObjectID) throws -> (any KeyValueResolving)? {
        if target.storeIdentifier != snapshot.objectID.storeIdentifier { return ForeignObjectReference(target) }
        return try loader.snapshot(of: target).map { LMDBRecordResolver(snapshot: $0, loader: loader) }
    }
}

extension PropertyValues {
    /// These values with `replacements` put in.
    fileprivate func replacing(_ replacements: [String: AttributeValue]) -> PropertyValues {
        guard !replacements.isEmpty else { return self }
        if let entity, var slots = slots(for: entity) {
            for (key, value) in replacements {
                if let slot = entity.slot(of: key), slot < slots.count { slots[slot] = value }
            }
            return PropertyValues(entity: entity, slots: slots)
        }
        var dictionary = self.dictionary
        for (key, value) in replacements { dictionary[key] = value }
        return PropertyValues(dictionary)
    }
}
