import Foundation

extension BinaryWriter {
    /// Appends `snapshot`: its object ID, its version (zigzag), the number of values and each
    /// value's property name (``write(property:)``) and value, in name order.
    public mutating func write(snapshot: Snapshot) {
        write(objectID: snapshot.objectID)
        write(signed: snapshot.version)
        guard let (entity, slots) = snapshot.values.slotted else {
            write(values: snapshot.values.dictionary) { $0.write(property: $1) }
            return
        }
        write(count: slots.count)
        for slot in entity.persistentSlotsByName {
            write(property: entity.slotNames[slot])
            write(value: slots[slot])
        }
    }

    /// Appends `node`: its snapshot, then the number of to-many relationships and, for each in
    /// name order, its property name, its number of members and their object IDs in order.
    public mutating func write(node: StoreNode) {
        write(snapshot: node.snapshot)
        write(count: node.toManyRelationships.count)
        for (name, members) in node.toManyRelationships.sorted(by: { $0.key < $1.key }) {
            write(property: name)
            write(count: members.count)
            for member in members { write(objectID: member) }
        }
    }

    /// Appends a property name: one more than its index in the context's property table, or 0
    /// and the name itself when the table does not hold it.
    public mutating func write(property name: String) {
        if let index = context.propertyIndexes[name] {
            write(count: index + 1)
        } else {
            write(count: 0)
            write(string: name)
        }
    }

    /// Appends `metadata`: store type, store identifier, the version hashes (count, then name and
    /// hash bytes in name order), the version identifiers (count, then each), the hashes' layout
    /// version (zigzag), the framework version, the model's JSON (0, or 1 and its bytes) and the
    /// user keys (count, then key and value in key order).
    public mutating func write(metadata: StoreMetadata) {
        write(string: metadata.storeType)
        write(string: metadata.storeIdentifier)
        write(count: metadata.versionHashes.count)
        for (name, hash) in metadata.versionHashes.sorted(by: { $0.key < $1.key }) {
            write(string: name)
            write(bytes: hash)
        }
        write(count: metadata.versionIdentifiers.count)
        for identifier in metadata.versionIdentifiers { write(string: identifier) }
        write(signed: Int64(metadata.versionHashesVersion))
        write(string: metadata.frameworkVersion)
        if let json = metadata.modelJSON {
            write(byte: 1)
            write(bytes: json)
        } else {
            write(byte: 0)
        }
        write(values: metadata.userInfo) { $0.write(string: $1) }
    }

    /// Appends the number of `values`, then each key (written by `writeKey`) and value, in key order.
    private mutating func write(
        values: [String: AttributeValue], writingKeysWith writeKey: (inout BinaryWriter, String) -> Void
    ) {
        write(count: values.count)
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            writeKey(&self, key)
            write(value: value)
        }
    }
}
