import CStrataLMDB
import Strata

/// Reads and writes the records of one store inside one transaction, remembering the
/// snapshots it decoded so that a fetch following relationships decodes each record once.
final class LMDBObjectLoader {
    let store: LMDBStore
    let transaction: LMDBTransaction
    private var cache: [ObjectID: Snapshot?] = [:]
    /// The first error met while the evaluator followed a relationship, which cannot throw.
    private(set) var failure: (any Error)?

    init(store: LMDBStore, transaction: LMDBTransaction) {
        self.store = store
        self.transaction = transaction
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
        let snapshot = try store.layout.decode(bytes, primaryKey: primaryKey, root: root)
        cache[snapshot.objectID] = snapshot
        return snapshot
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
                    try loader.members(of: snapshot.objectID, relationship: key).compactMap {
                        try loader.snapshot(of: $0)
                    }
                }
                return .objects(members.map { LMDBRecordResolver(snapshot: $0, loader: loader) })
            }
            guard case .objectID(let target)? = snapshot.values[key],
                let destination = loader.resolving(nil, { try loader.snapshot(of: target) })
            else { return .value(.null) }
            return .object(LMDBRecordResolver(snapshot: destination, loader: loader))
        }
        guard entity.attributesByName[key] != nil else { return nil }
        return .value(snapshot.values[key] ?? .null)
    }

    var objectIdentity: AttributeValue { .objectID(snapshot.objectID) }
}
