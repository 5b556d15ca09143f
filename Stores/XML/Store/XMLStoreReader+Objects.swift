import Foundation
import Strata

extension XMLStoreReader {
    /// Reads the `<object>` whose start tag the reader is on, up to its end tag: its entity,
    /// id and version, its attribute values and the ids its relationships name.
    func readObject(_ reader: XMLTextReader, isEmpty: Bool, names: XMLStoreNames) throws -> PendingObject {
        let line = reader.line ?? 0
        let type = reader.attribute("type") ?? ""
        guard let entityName = names.entityName(type) else {
            throw unexplained("an <object> names no entity of the model (type '\(type)').", type, names, reader)
        }
        guard let id = reader.attribute("id"), let reference = XMLStoreFormat.reference(Substring(id)) else {
            throw reader.corrupt("an <object> has no id of the form z<number>.")
        }
        guard let version = Int64(reader.attribute("version") ?? "1"), version >= 1 else {
            throw reader.corrupt("object \(id) has a version that is not a positive number.")
        }
        let entity = names.schema?.entitiesByName[entityName]
        var object = PendingObject(
            reference: reference, entityName: entityName, version: version, values: [:], toOne: [:], toMany: [:],
            destinations: [:], line: line)
        while !isEmpty, case .start(let element, let elementEmpty) = try nextElement(reader, in: "object \(id)") {
            guard let fileName = reader.attribute("name"), let name = names.propertyName(fileName, of: entityName)
            else {
                throw unexplained(
                    "object \(id) has a property that entity '\(entityName)' does not have.", type, names, reader)
            }
            switch element {
            case "attribute":
                object.values[name] = try readAttribute(
                    reader, isEmpty: elementEmpty, name: name, entity: entity, names: names)
            case "relationship":
                try readRelationship(reader, isEmpty: elementEmpty, name: name, names: names, into: &object)
            default:
                throw reader.corrupt("object \(id) holds <\(element)>; it holds only <attribute> and <relationship>.")
            }
        }
        return object
    }

    private func readAttribute(
        _ reader: XMLTextReader, isEmpty: Bool, name: String, entity: EntitySchema?, names: XMLStoreNames
    ) throws -> AttributeValue {
        let typeName = reader.attribute("type") ?? ""
        let isBase64 = reader.attribute("encoding") == "base64"
        let text = try PropertyListValue.text(of: "attribute", isEmpty: isEmpty, from: reader)
        guard let value = XMLAttributeCodec.decode(XMLAttributeText(typeName: typeName, text: text, isBase64: isBase64))
        else {
            throw reader.corrupt("attribute '\(name)' does not hold a value of type '\(typeName)'.")
        }
        if let entity {
            guard let attribute = entity.attributesByName[name], !attribute.isTransient,
                fits(value, attribute.type)
            else {
                throw unexplained(
                    "attribute '\(name)' of type '\(typeName)' is not a stored attribute of that type of entity "
                        + "'\(entity.name)'.", entity.name, names, reader)
            }
        }
        return value
    }

    /// Whether `value` is of the model's `type`: transformable values are data.
    private func fits(_ value: AttributeValue, _ type: AttributeType) -> Bool {
        value.attributeType == type || (type == .transformable && value.attributeType == .binary)
    }

    private func readRelationship(
        _ reader: XMLTextReader, isEmpty: Bool, name: String, names: XMLStoreNames, into object: inout PendingObject
    ) throws {
        let entity = names.schema?.entitiesByName[object.entityName]
        let idrefs = reader.attribute("idrefs") ?? ""
        if let destination = reader.attribute("destination").flatMap(names.entityName) {
            object.destinations[name] = destination
        }
        let isToMany: Bool
        if let entity {
            guard let relationship = entity.relationshipsByName[name], !relationship.isTransient else {
                throw unexplained(
                    "relationship '\(name)' is not a stored relationship of entity '\(entity.name)'.", entity.name,
                    names, reader)
            }
            isToMany = relationship.isToMany
        } else {
            isToMany = reader.attribute("type") != XMLStoreFormat.toOne
        }
        var members: [Member] = []
        for id in idrefs.split(separator: " ") {
            if let reference = XMLStoreFormat.reference(id) {
                members.append(.local(reference))
            } else if let foreign = ObjectID(uriString: String(id)), foreign.storeIdentifier != nil,
                !foreign.isTemporary
            {
                members.append(.foreign(foreign))
            } else {
                throw reader.corrupt("relationship '\(name)' names '\(id)', which is not an object id.")
            }
        }
        let content = try PropertyListValue.text(of: "relationship", isEmpty: isEmpty, from: reader)
        guard XMLStoreFormat.isWhitespace(content) else { throw reader.corrupt("relationship '\(name)' holds text.") }
        if isToMany {
            object.toMany[name] = members
        } else if members.count > 1 {
            throw reader.corrupt("the to-one relationship '\(name)' names \(members.count) objects.")
        } else if let target = members.first {
            object.toOne[name] = target
        }
    }

    /// The error for a name or value the model cannot explain in an object of the entity the
    /// file calls `fileEntity`: `StoreError/Code/incompatibleModel` when the metadata shows
    /// the store was written with another model for that entity, else `StoreError/Code/corrupt`.
    private func unexplained(
        _ problem: String, _ fileEntity: String, _ names: XMLStoreNames, _ reader: XMLTextReader
    ) -> StoreError {
        guard names.isFromAnotherModel(entity: fileEntity) else { return reader.corrupt(problem) }
        return StoreError(
            code: .incompatibleModel,
            message: "'\(reader.path)', \(reader.position): \(problem) The store was written with another model "
                + "(its version hash of the entity differs); open it with that model or migrate it.")
    }
}
