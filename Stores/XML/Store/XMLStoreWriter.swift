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
        var layouts: [String: EntityLayout] = [:]
        for (number, node) in numbered.sorted(by: { $0.0 < $1.0 }) {
            try writer.newline(depth: 1)
            try writeObject(node, number: number, layouts: &layouts, to: writer)
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

    /// What every object of one entity writes, worked out once per save: its file name, its
    /// attributes in name order with their slots, file names and types, and its persistent
    /// relationships in name order.
    private struct EntityLayout {
        struct Attribute {
            let name: String
            let slot: Int
            let fileName: String
            let type: AttributeType
        }

        struct Relationship {
            let name: String
            let fileName: String
            let isToMany: Bool
            let destinationFileName: String
        }

        let entity: EntitySchema
        let fileName: String
        let attributes: [Attribute]
        let relationships: [Relationship]

        init(_ entity: EntitySchema) {
            self.entity = entity
            fileName = XMLStoreNames.fileName(ofEntity: entity.name)
            attributes = entity.slotNames.prefix(entity.persistentSlotCount).enumerated()
                .compactMap { slot, name in
                    entity.attributesByName[name].map {
                        Attribute(
                            name: name, slot: slot, fileName: XMLStoreNames.fileName(ofProperty: name), type: $0.type)
                    }
                }
                .sorted { $0.name < $1.name }
            relationships = entity.relationships.filter { !$0.isTransient }
                .map {
                    Relationship(
                        name: $0.name, fileName: XMLStoreNames.fileName(ofProperty: $0.name), isToMany: $0.isToMany,
                        destinationFileName: XMLStoreNames.fileName(ofEntity: $0.destinationEntityName))
                }
                .sorted { $0.name < $1.name }
        }
    }

    private func writeObject(
        _ node: StoreNode, number: Int64, layouts: inout [String: EntityLayout], to writer: XMLTextWriter
    ) throws {
        let objectID = node.snapshot.objectID
        let layout = names.schema?.entitiesByName[objectID.entityName].map { entity in
            if let known = layouts[entity.name] { return known }
            let layout = EntityLayout(entity)
            layouts[entity.name] = layout
            return layout
        }
        try writer.start("object")
        try writer.attribute("type", layout?.fileName ?? XMLStoreNames.fileName(ofEntity: objectID.entityName))
        try writer.attribute("id", XMLStoreFormat.objectID(number))
        if node.snapshot.version != 1 { try writer.attribute("version", "\(node.snapshot.version)") }
        if let layout, let slots = node.snapshot.values.slots(for: layout.entity) {
            for attribute in layout.attributes {
                guard let encoded = XMLAttributeCodec.encode(slots[attribute.slot], declaredType: attribute.type)
                else { continue }
                try writeAttribute(encoded, fileName: attribute.fileName, to: writer)
            }
        } else {
            for (name, value) in node.snapshot.values.sorted(by: { $0.key < $1.key }) {
                let type = layout?.entity.attributesByName[name]?.type
                guard let encoded = XMLAttributeCodec.encode(value, declaredType: type) else { continue }
                try writeAttribute(encoded, fileName: XMLStoreNames.fileName(ofProperty: name), to: writer)
            }
        }
        for relationship in try relationships(of: node, layout: layout) {
            try writer.newline(depth: 2)
            try writer.start("relationship")
            try writer.attribute("name", relationship.fileName)
            try writer.attribute("type", relationship.isToMany ? XMLStoreFormat.toMany : XMLStoreFormat.toOne)
            try writer.attribute("destination", relationship.destinationFileName)
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

    private func writeAttribute(_ encoded: XMLAttributeText, fileName: String, to writer: XMLTextWriter) throws {
        try writer.newline(depth: 2)
        try writer.start("attribute")
        try writer.attribute("name", fileName)
        try writer.attribute("type", encoded.typeName)
        if encoded.isBase64 { try writer.attribute("encoding", "base64") }
        try writer.text(encoded.text)
        try writer.end()
    }

    /// One `<relationship>` element's contents.
    private struct RelationshipElement {
        var fileName: String
        var isToMany: Bool
        var destinationFileName: String
        var members: [ObjectID]
    }

    /// The relationships of `node` in name order: with a model, every persistent relationship
    /// of its entity, empty ones included (Core Data writes those too); without one, the to-one
    /// references in the snapshot and the to-many lists it has.
    private func relationships(of node: StoreNode, layout: EntityLayout?) throws -> [RelationshipElement] {
        if let layout {
            return layout.relationships.map { relationship in
                let members: [ObjectID]
                if relationship.isToMany {
                    members = node.toManyRelationships[relationship.name] ?? []
                } else if case .objectID(let target) = node.snapshot.values[relationship.name] {
                    members = [target]
                } else {
                    members = []
                }
                return RelationshipElement(
                    fileName: relationship.fileName, isToMany: relationship.isToMany,
                    destinationFileName: relationship.destinationFileName, members: members)
            }
        }
        var elements: [(name: String, element: RelationshipElement)] = []
        for case (let name, .objectID(let target)) in node.snapshot.values {
            elements.append((name, element(name, isToMany: false, destination: target.entityName, members: [target])))
        }
        for (name, members) in node.toManyRelationships {
            guard let first = members.first else { continue }
            elements.append((name, element(name, isToMany: true, destination: first.entityName, members: members)))
        }
        return elements.sorted { $0.name < $1.name }.map(\.element)
    }

    private func element(_ name: String, isToMany: Bool, destination: String, members: [ObjectID])
        -> RelationshipElement
    {
        RelationshipElement(
            fileName: XMLStoreNames.fileName(ofProperty: name), isToMany: isToMany,
            destinationFileName: XMLStoreNames.fileName(ofEntity: destination), members: members)
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
