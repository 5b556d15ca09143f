import Foundation
import Strata

/// Reads a whole XML store in one forward pass through ``XMLTextReader``, then links the
/// relationships, whose `idrefs` may point at objects further down the file.
///
/// Names are matched without regard to case (``XMLStoreNames``) against the model the file's
/// metadata records, else the one the store was given. Anything that does not fit,
/// from malformed XML to an `idrefs` naming no object, is ``StoreError/Code/corrupt`` naming
/// the file and position; a newer format version is ``StoreError/Code/unsupported``.
struct XMLStoreReader {
    /// The store type, as recorded in the metadata read.
    let typeName: String
    /// The model names are resolved against when the file records none.
    let model: ManagedObjectModel?

    /// An object as read, before its relationships are linked.
    private struct PendingObject {
        var reference: Int64
        var entityName: String
        var version: Int64
        var values: [String: AttributeValue]
        var toOne: [String: Int64]
        var toMany: [String: [Int64]]
        /// The entity each relationship's `destination` names, for members that are not in the
        /// file (left behind by a no-action delete rule).
        var destinations: [String: String]
        var position: String
    }

    /// Reads the document `reader` is at the start of.
    func read(_ reader: XMLTextReader) throws -> AtomicStoreContents {
        guard case .start("database", let isEmpty) = try nextElement(reader, in: "the document") else {
            throw reader.corrupt("this is not an XML store: its root element is not <database>.")
        }
        guard !isEmpty, case .start("databaseInfo", let infoEmpty) = try nextElement(reader, in: "<database>") else {
            throw reader.corrupt("<database> does not start with <databaseInfo>.")
        }
        let info = try readInfo(reader, isEmpty: infoEmpty)
        let names = try XMLStoreNames(metadata: info.metadata, model: model, path: reader.path)
        var objects: [PendingObject] = []
        while case .start(let name, let objectEmpty) = try nextElement(reader, in: "<database>") {
            guard name == "object" else { throw reader.corrupt("<database> holds <\(name)>; it holds only <object>.") }
            objects.append(try readObject(reader, isEmpty: objectEmpty, names: names))
        }
        guard try reader.next() == .endOfDocument else { throw reader.corrupt("there is more after </database>.") }
        // <nextObjectID> holds the last number handed out: Core Data's files hold z102 to
        // z<nextObjectID>. An id above it (a hand-edited file) still gets no twin.
        let maximum = objects.map(\.reference).max() ?? 0
        return AtomicStoreContents(
            metadata: info.metadata,
            nodes: try link(objects, names: names, storeIdentifier: info.metadata.storeIdentifier, path: reader.path),
            nextReference: max(info.lastObjectID, maximum) + 1)
    }

    // MARK: - databaseInfo

    private func readInfo(_ reader: XMLTextReader, isEmpty: Bool) throws -> (
        metadata: StoreMetadata, lastObjectID: Int64
    ) {
        var fields: [String: String] = [:]
        var plist = PropertyListValue.dictionary([:])
        while !isEmpty, case .start(let name, let fieldEmpty) = try nextElement(reader, in: "<databaseInfo>") {
            if name == "metadata" {
                if !fieldEmpty { plist = try readMetadataPlist(reader) }
            } else {
                fields[name] = try PropertyListValue.text(of: name, isEmpty: fieldEmpty, from: reader)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                // A newer format may differ in what follows, so its version is checked first.
                if name == "version" { try checkVersion(fields[name], reader) }
            }
        }
        try checkVersion(fields["version"], reader)
        guard let uuid = fields["UUID"], !uuid.isEmpty else { throw reader.corrupt("<databaseInfo> has no <UUID>.") }
        guard let nextText = fields["nextObjectID"], let next = Int64(nextText), next >= 0, next < .max else {
            throw reader.corrupt("<databaseInfo> has no <nextObjectID> number.")
        }
        let metadata = try XMLStoreMetadata.metadata(plist, uuid: uuid, storeType: typeName, corrupt: reader.corrupt)
        return (metadata, next)
    }

    /// Refuses a missing format version as damage and a newer one as unsupported.
    private func checkVersion(_ text: String?, _ reader: XMLTextReader) throws {
        guard let version = text.flatMap({ Int64($0) }) else {
            throw reader.corrupt("<databaseInfo> has no <version> number.")
        }
        guard version <= XMLStoreFormat.version else {
            throw StoreError(
                code: .unsupported,
                message: "'\(reader.path)' was written in XML store format version \(version); this Strata reads "
                    + "versions up to \(XMLStoreFormat.version). Use a newer Strata.")
        }
    }

    /// Reads the inside of `<metadata>`: an optional `<plist>` holding one dictionary.
    private func readMetadataPlist(_ reader: XMLTextReader) throws -> PropertyListValue {
        var plist = PropertyListValue.dictionary([:])
        while case .start(let name, let isEmpty) = try nextElement(reader, in: "<metadata>") {
            guard name == "plist" else { throw reader.corrupt("<metadata> holds <\(name)>; it holds only <plist>.") }
            while !isEmpty, case .start(let valueName, let valueEmpty) = try nextElement(reader, in: "<plist>") {
                plist = try PropertyListValue.read(valueName, isEmpty: valueEmpty, from: reader)
            }
        }
        return plist
    }

    // MARK: - objects

    private func readObject(_ reader: XMLTextReader, isEmpty: Bool, names: XMLStoreNames) throws -> PendingObject {
        let position = reader.position
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
            destinations: [:], position: position)
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
        var members: [Int64] = []
        for id in idrefs.split(separator: " ") {
            guard let reference = XMLStoreFormat.reference(id) else {
                throw reader.corrupt("relationship '\(name)' names '\(id)', which is not an object id.")
            }
            members.append(reference)
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

    // MARK: - linking

    /// The nodes for `objects`, with every relationship pointing at an object of the file.
    private func link(
        _ objects: [PendingObject], names: XMLStoreNames, storeIdentifier: String, path: String
    ) throws -> [StoreNode] {
        var entities: [Int64: String] = [:]
        for object in objects {
            guard entities.updateValue(object.entityName, forKey: object.reference) == nil else {
                throw StoreError(
                    code: .corrupt,
                    message: "'\(path)', \(object.position): the id z\(object.reference) is used by two objects.")
            }
        }
        return try objects.map { object in
            let entity = names.schema?.entitiesByName[object.entityName]
            func target(_ reference: Int64, of relationship: String) throws -> ObjectID {
                let destination =
                    entity?.relationshipsByName[relationship]?.destinationEntityName
                    ?? object.destinations[relationship]
                let stored = entities[reference]
                guard let targetEntity = stored ?? destination,
                    Self.entity(targetEntity, fits: destination, in: names.schema)
                else {
                    throw StoreError(
                        code: .corrupt,
                        message:
                            "'\(path)', \(object.position): relationship '\(relationship)' of z\(object.reference) "
                            + "names z\(reference), which is not an object it can hold.")
                }
                return ObjectID(
                    storeIdentifier: storeIdentifier, entityName: targetEntity, reference: .integer(reference))
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
                    objectID: ObjectID(
                        storeIdentifier: storeIdentifier, entityName: object.entityName,
                        reference: .integer(object.reference)),
                    values: values, version: object.version),
                toManyRelationships: toMany)
        }
    }

    /// The error for a name or value the model cannot explain in an object of the entity the
    /// file calls `fileEntity`: ``StoreError/Code/incompatibleModel`` when the metadata shows
    /// the store was written with another model for that entity, else ``StoreError/Code/corrupt``.
    private func unexplained(
        _ problem: String, _ fileEntity: String, _ names: XMLStoreNames, _ reader: XMLTextReader
    ) -> StoreError {
        guard names.isFromAnotherModel(entity: fileEntity) else { return reader.corrupt(problem) }
        return StoreError(
            code: .incompatibleModel,
            message: "'\(reader.path)', \(reader.position): \(problem) The store was written with another model "
                + "(its version hash of the entity differs); open it with that model or migrate it.")
    }

    /// Whether an object of `entity` can be a member of a relationship to `destination`: it
    /// is that entity or one below it. Without a model or a destination, any entity can.
    private static func entity(_ entity: String, fits destination: String?, in schema: ModelSchema?) -> Bool {
        guard let destination, let resolved = schema?.entitiesByName[entity] else { return true }
        return resolved.isKind(of: destination)
    }

    /// The next element start or end inside `place`, passing over whitespace.
    private func nextElement(_ reader: XMLTextReader, in place: String) throws -> XMLTextReader.Node {
        while true {
            let node = try reader.next()
            switch node {
            case .text(let content) where XMLStoreFormat.isWhitespace(content): continue
            case .text: throw reader.corrupt("\(place) holds text outside any element.")
            case .endOfDocument: throw reader.corrupt("the file ends inside \(place).")
            case .start, .end: return node
            }
        }
    }
}
