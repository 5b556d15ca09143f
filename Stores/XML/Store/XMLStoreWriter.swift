import Foundation
import Strata

/// Writes a whole XML store in one pass through ``XMLTextWriter``, laid out as Core Data lays
/// it out: the declaration and document type, `<databaseInfo>`, then one `<object>` per object.
///
/// The output depends only on the contents: objects in order of their `z` number, each
/// object's attributes and then its relationships in order of their names, metadata keys
/// sorted. Saving the same graph twice gives the same bytes.
struct XMLStoreWriter {
    let names: XMLStoreNames

    /// Writes `contents` to the new file at `url`.
    ///
    /// - Throws: ``StoreError/Code/io`` when writing fails; ``StoreError/Code/unsupported``
    ///   for an object whose reference is not an integer.
    func write(_ contents: AtomicStoreContents, to url: URL) throws {
        let writer = try XMLTextWriter(url: url)
        try writer.startDocument()
        try writer.documentType(root: "database", systemID: XMLStoreFormat.systemID)
        try writer.newline(depth: 0)
        try writer.newline(depth: 0)
        try writer.start("database")
        try writer.newline(depth: 1)
        try writeInfo(contents, to: writer)
        let numbered = try contents.nodes.map { (try reference(of: $0.snapshot.objectID), $0) }
        for (number, node) in numbered.sorted(by: { $0.0 < $1.0 }) {
            try writer.newline(depth: 1)
            try writeObject(node, number: number, to: writer)
        }
        try writer.newline(depth: 0)
        try writer.end()
        try writer.flush()
    }

    private func writeInfo(_ contents: AtomicStoreContents, to writer: XMLTextWriter) throws {
        try writer.start("databaseInfo")
        try writer.newline(depth: 2)
        try writer.element("version", text: "\(XMLStoreFormat.version)")
        try writer.newline(depth: 2)
        try writer.element("UUID", text: contents.metadata.storeIdentifier)
        try writer.newline(depth: 2)
        // Core Data records the last number it handed out, not the next one.
        try writer.element("nextObjectID", text: "\(contents.nextReference - 1)")
        try writer.newline(depth: 2)
        try writer.start("metadata")
        try writer.newline(depth: 3)
        try writer.start("plist")
        try writer.attribute("version", "1.0")
        try writer.newline(depth: 4)
        try XMLStoreMetadata.propertyList(contents.metadata).write(to: writer, depth: 4)
        try writer.newline(depth: 3)
        try writer.end()
        try writer.newline(depth: 2)
        try writer.end()
        try writer.newline(depth: 1)
        try writer.end()
    }

    private func writeObject(_ node: StoreNode, number: Int64, to writer: XMLTextWriter) throws {
        let objectID = node.snapshot.objectID
        let entity = names.schema?.entitiesByName[objectID.entityName]
        try writer.start("object")
        try writer.attribute("type", XMLStoreNames.fileName(ofEntity: objectID.entityName))
        try writer.attribute("id", XMLStoreFormat.objectID(number))
        if node.snapshot.version != 1 { try writer.attribute("version", "\(node.snapshot.version)") }
        for (name, value) in node.snapshot.values.sorted(by: { $0.key < $1.key }) {
            guard let encoded = XMLAttributeCodec.encode(value, declaredType: entity?.attributesByName[name]?.type)
            else { continue }
            try writer.newline(depth: 2)
            try writer.start("attribute")
            try writer.attribute("name", XMLStoreNames.fileName(ofProperty: name))
            try writer.attribute("type", encoded.typeName)
            if encoded.isBase64 { try writer.attribute("encoding", "base64") }
            try writer.text(encoded.text)
            try writer.end()
        }
        for relationship in try relationships(of: node, entity: entity) {
            try writer.newline(depth: 2)
            try writer.start("relationship")
            try writer.attribute("name", XMLStoreNames.fileName(ofProperty: relationship.name))
            try writer.attribute("type", relationship.isToMany ? XMLStoreFormat.toMany : XMLStoreFormat.toOne)
            try writer.attribute("destination", XMLStoreNames.fileName(ofEntity: relationship.destination))
            if !relationship.members.isEmpty {
                try writer.attribute(
                    "idrefs",
                    try relationship.members.map { XMLStoreFormat.objectID(try reference(of: $0)) }
                        .joined(separator: " "))
            }
            try writer.end()
        }
        try writer.newline(depth: 1)
        try writer.end()
    }

    /// One `<relationship>` element's contents.
    private struct RelationshipElement {
        var name: String
        var isToMany: Bool
        var destination: String
        var members: [ObjectID]
    }

    /// The relationships of `node` in name order: with a model, every persistent relationship
    /// of its entity, empty ones included (Core Data writes those too); without one, the to-one
    /// references in the snapshot and the to-many lists it has.
    private func relationships(of node: StoreNode, entity: EntitySchema?) throws -> [RelationshipElement] {
        var elements: [RelationshipElement] = []
        if let entity {
            for relationship in entity.relationships where !relationship.isTransient {
                let members: [ObjectID]
                if relationship.isToMany {
                    members = node.toManyRelationships[relationship.name] ?? []
                } else if case .objectID(let target) = node.snapshot.values[relationship.name] {
                    members = [target]
                } else {
                    members = []
                }
                elements.append(
                    RelationshipElement(
                        name: relationship.name, isToMany: relationship.isToMany,
                        destination: relationship.destinationEntityName, members: members))
            }
        } else {
            for case (let name, .objectID(let target)) in node.snapshot.values {
                elements.append(
                    RelationshipElement(name: name, isToMany: false, destination: target.entityName, members: [target]))
            }
            for (name, members) in node.toManyRelationships {
                guard let first = members.first else { continue }
                elements.append(
                    RelationshipElement(name: name, isToMany: true, destination: first.entityName, members: members))
            }
        }
        return elements.sorted { $0.name < $1.name }
    }

    private func reference(of objectID: ObjectID) throws -> Int64 {
        guard case .integer(let number) = objectID.reference else {
            throw StoreError(
                code: .unsupported,
                message: "An XML store numbers its objects; \(objectID) has no integer reference.")
        }
        return number
    }
}
