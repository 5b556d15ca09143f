import Foundation
import Strata
import StrataSync

/// Builds a ``DumpDocument`` from a store.
///
/// A plain dump names objects by their URI and lists them in URI order. A canonical dump is
/// the same for two stores holding the same object graph, whatever their type and IDs: it
/// leaves out the store's type and UUID, orders each entity's objects by their attribute values,
/// then by the attribute values of the objects they refer to, and names every object
/// `Entity/position` by that order; unordered to-many members are listed by position. It
/// leaves out sync's own entities (`StrataSync…`), whose records are each store's bookkeeping.
struct DumpBuilder {
    /// One object as read from the store.
    private struct Record {
        var objectID: ObjectID
        var attributes: [String: AttributeValue]
        var toOne: [String: ObjectID?]
        var toMany: [String: [ObjectID]]
    }

    let contents: StoreContents
    let canonical: Bool

    /// The document for every object of the store.
    func build() throws -> DumpDocument {
        var records: [String: [Record]] = [:]
        for name in contents.entityNames where !(canonical && SyncModel.isSyncEntity(name)) {
            guard let entity = contents.schema.entitiesByName[name] else { continue }
            records[name] = try contents.snapshots(of: name).map { try record($0, entity: entity) }
        }
        let ordered =
            canonical
            ? try canonicalOrder(records)
            : records.mapValues { $0.sorted { $0.objectID.uriString < $1.objectID.uriString } }
        var names: [ObjectID: String] = [:]
        for (entityName, list) in ordered {
            for (position, record) in list.enumerated() {
                names[record.objectID] = canonical ? "\(entityName)/\(position)" : record.objectID.uriString
            }
        }
        let entities = ordered.mapValues { list in list.map { object($0, names: names) } }
        let store = contents.store
        return DumpDocument(
            store: canonical ? .init() : .init(type: store.typeName, uuid: store.identifier), entities: entities)
    }

    private func record(_ snapshot: Snapshot, entity: EntitySchema) throws -> Record {
        var attributes: [String: AttributeValue] = [:]
        for attribute in entity.attributes where !attribute.isTransient {
            attributes[attribute.name] = snapshot.values[attribute.name] ?? .null
        }
        var toOne: [String: ObjectID?] = [:]
        for relationship in entity.relationships where !relationship.isToMany && !relationship.isTransient {
            if case .objectID(let id) = snapshot.values[relationship.name] {
                toOne[relationship.name] = id
            } else {
                toOne[relationship.name] = .some(nil)
            }
        }
        let toMany = try contents.toManyMembers(of: snapshot, entity: entity)
        return Record(objectID: snapshot.objectID, attributes: attributes, toOne: toOne, toMany: toMany)
    }

    private func object(_ record: Record, names: [ObjectID: String]) -> DumpDocument.Object {
        func name(_ id: ObjectID) -> String { names[id] ?? id.uriString }
        var relationships: [String: DumpDocument.Relationship] = [:]
        for (key, target) in record.toOne { relationships[key] = .toOne(target.map(name)) }
        for (key, members) in record.toMany {
            let entity = contents.schema.entitiesByName[record.objectID.entityName]
            let isOrdered = entity?.relationshipsByName[key]?.isOrdered ?? false
            let listed = members.map(name)
            relationships[key] = .toMany(canonical && !isOrdered ? listed.sorted(by: Self.positionOrder) : listed)
        }
        return DumpDocument.Object(
            id: name(record.objectID), attributes: record.attributes, relationships: relationships)
    }

    /// Orders each entity's records by their attribute values, then by those of their targets.
    private func canonicalOrder(_ records: [String: [Record]]) throws -> [String: [Record]] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var keys: [ObjectID: String] = [:]
        for record in records.values.joined() {
            keys[record.objectID] = String(decoding: try encoder.encode(record.attributes), as: UTF8.self)
        }
        func signature(_ record: Record) -> [String] {
            var parts = [keys[record.objectID] ?? ""]
            for key in record.toOne.keys.sorted() {
                parts.append(record.toOne[key].flatMap { $0 }.flatMap { keys[$0] } ?? "null")
            }
            for key in record.toMany.keys.sorted() {
                parts.append(
                    (record.toMany[key] ?? []).map { keys[$0] ?? $0.uriString }.sorted().joined(separator: ","))
            }
            return parts
        }
        return records.mapValues { list in
            list.map { ($0, signature($0)) }.sorted { $0.1.lexicographicallyPrecedes($1.1) }.map(\.0)
        }
    }

    /// `Entity/position` names in entity order, then numeric position order.
    private static func positionOrder(_ left: String, _ right: String) -> Bool {
        let l = left.split(separator: "/", maxSplits: 1)
        let r = right.split(separator: "/", maxSplits: 1)
        guard l.count == 2, r.count == 2, let lp = Int(l[1]), let rp = Int(r[1]) else { return left < right }
        return (l[0], lp) < (r[0], rp)
    }
}
