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
    /// - Throws: `StoreError/Code/io` when writing fails; `StoreError/Code/unsupported`
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
            try writeObject(
                node, number: number, storeIdentifier: contents.metadata.storeIdentifier, layouts: &layouts, to: writer)
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

            init(name: String, isToMany: Bool, destination: String) {
                self.name = name
                fileName = XMLStoreNames.fileName(ofProperty: name)
                self.isToMany = isToMany
                destinationFileName = XMLStoreNames.fileName(ofEntity: destination)
            }
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
                .map { Relationship(name: $0.name, isToMany: $0.isToMany, destination: $0.destinationEntityName) }
                .sorted { $0.name < $1.name }
        }
    }

    private func writeObject(
        _ node: StoreNode, number: Int64, storeIdentifier: String, layouts: inout [String: EntityLayout],
        to writer: XMLTextWriter
    ) throws {
        let objectID = node.snapshot.objectID
        let layout = layout(of: objectID.entityName, in: &layouts)
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
                // Without the model, an object ID is a to-one relationship's, written below.
                if case .objectID = value, type != .objectID { continue }
                guard let encoded = XMLAttributeCodec.encode(value, declaredType: type) else { continue }
                try writeAttribute(encoded, fileName: XMLStoreNames.fileName(ofProperty: name), to: writer)
            }
        }
        for (relationship, members) in relationships(of: node, layout: layout) {
            try writer.newline(depth: 2)
            try writer.start("relationship")
            try writer.attribute("name", relationship.fileName)
            try writer.attribute("type", relationship.isToMany ? XMLStoreFormat.toMany : XMLStoreFormat.toOne)
            try writer.attribute("destination", relationship.destinationFileName)
            if !members.isEmpty {
                try writer.attribute(
                    "idrefs", try members.map { try idref(of: $0, in: storeIdentifier) }.joined(separator: " "))
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

    /// The layout of `entityName`'s objects, worked out on first use; `nil` without a model.
    private func layout(of entityName: String, in layouts: inout [String: EntityLayout]) -> EntityLayout? {
        if let known = layouts[entityName] { return known }
        guard let entity = names.schema?.entitiesByName[entityName] else { return nil }
        let layout = EntityLayout(entity)
        layouts[entityName] = layout
        return layout
    }

    /// The relationships of `node` in name order, with their members: with a model, every
    /// persistent relationship of its entity, empty ones included (Core Data writes those too);
    /// without one, the to-one references in the snapshot and the to-many lists it has.
    private func relationships(
        of node: StoreNode, layout: EntityLayout?
    ) -> [(relationship: EntityLayout.Relationship, members: [ObjectID])] {
        if let layout {
            return layout.relationships.map { relationship in
                if relationship.isToMany { return (relationship, node.toManyRelationships[relationship.name] ?? []) }
                guard case .objectID(let target) = node.snapshot.values[relationship.name] else {
                    return (relationship, [])
                }
                return (relationship, [target])
            }
        }
        var found: [(relationship: EntityLayout.Relationship, members: [ObjectID])] = []
        for case (let name, .objectID(let target)) in node.snapshot.values {
            found.append((.init(name: name, isToMany: false, destination: target.entityName), [target]))
        }
        for (name, members) in node.toManyRelationships {
            guard let first = members.first else { continue }
            found.append((.init(name: name, isToMany: true, destination: first.entityName), members))
        }
        return found.sorted { $0.relationship.name < $1.relationship.name }
    }

    /// How `idrefs` names `member` of a relationship of store `storeIdentifier`: `z` and its
    /// number, or its URI when it is an object of another store.
    private func idref(of member: ObjectID, in storeIdentifier: String) throws -> String {
        if let store = member.storeIdentifier, store != storeIdentifier { return member.uriString }
        return XMLStoreFormat.objectID(try reference(of: member))
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
