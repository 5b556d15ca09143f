import Foundation
import Strata

extension XMLStoreReader {
    /// The nodes for `objects`, with every relationship pointing at an object of the file.
    func link(
        _ objects: [PendingObject], names: XMLStoreNames, storeIdentifier: String, path: String
    ) throws -> [StoreNode] {
        var entities: [Int64: String] = [:]
        for object in objects {
            guard entities.updateValue(object.entityName, forKey: object.reference) == nil else {
                throw StoreError(
                    code: .corrupt,
                    message: "'\(path)', line \(object.line): the id z\(object.reference) is used by two objects.")
            }
        }
        var namespaces: [String: ObjectID.Namespace] = [:]
        func objectID(_ entityName: String, _ reference: Int64) -> ObjectID {
            if let namespace = namespaces[entityName] { return ObjectID(namespace, reference: .integer(reference)) }
            let namespace = ObjectID.Namespace(storeIdentifier: storeIdentifier, entityName: entityName)
            namespaces[entityName] = namespace
            return ObjectID(namespace, reference: .integer(reference))
        }
        return try objects.map { object in
            let entity = names.schema?.entitiesByName[object.entityName]
            func target(_ member: Member, of relationship: String) throws -> ObjectID {
                let destination =
                    entity?.relationshipsByName[relationship]?.destinationEntityName
                    ?? object.destinations[relationship]
                guard case .local(let reference) = member else { return try foreign(member, of: relationship) }
                let stored = entities[reference]
                guard let targetEntity = stored ?? destination,
                    Self.entity(targetEntity, fits: destination, in: names.schema)
                else {
                    throw StoreError(
                        code: .corrupt,
                        message:
                            "'\(path)', line \(object.line): relationship '\(relationship)' of z\(object.reference) "
                            + "names z\(reference), which is not an object it can hold.")
                }
                return objectID(targetEntity, reference)
            }
            func foreign(_ member: Member, of relationship: String) throws -> ObjectID {
                guard case .foreign(let id) = member, id.storeIdentifier != storeIdentifier,
                    Self.entity(
                        id.entityName,
                        fits: entity?.relationshipsByName[relationship]?.destinationEntityName
                            ?? object.destinations[relationship], in: names.schema)
                else {
                    throw StoreError(
                        code: .corrupt,
                        message:
                            "'\(path)', line \(object.line): relationship '\(relationship)' of z\(object.reference) "
                            + "names \(member), which is not an object of another store it can hold.")
                }
                return id
            }
            var values = object.values
            if let entity {
                for attribute in entity.attributes where !attribute.isTransient && values[attribute.name] == nil {
                    values[attribute.name] = .null
                }
                for relationship in entity.relationships where !relationship.isTransient && !relationship.isToMany {
                    values[relationship.name] = .null
                }
            }
            for (name, reference) in object.toOne { values[name] = .objectID(try target(reference, of: name)) }
            var toMany: [String: [ObjectID]] = [:]
            for (name, members) in object.toMany { toMany[name] = try members.map { try target($0, of: name) } }
            return StoreNode(
                snapshot: Snapshot(
                    objectID: objectID(object.entityName, object.reference),
                    values: (slotSchema?.entitiesByName[object.entityName] ?? entity).map {
                        PropertyValues(values).bySlots(of: $0)
                    } ?? PropertyValues(values),
                    version: object.version),
                toManyRelationships: toMany)
        }
    }

    /// Whether an object of `entity` can be a member of a relationship to `destination`: it
    /// is that entity or one below it. Without a model or a destination, any entity can.
    private static func entity(_ entity: String, fits destination: String?, in schema: ModelSchema?) -> Bool {
        guard let destination, let resolved = schema?.entitiesByName[entity] else { return true }
        return resolved.isKind(of: destination)
    }
}
