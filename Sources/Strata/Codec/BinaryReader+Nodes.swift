import Foundation

extension BinaryReader {
    /// Reads a snapshot ``BinaryWriter/write(snapshot:)`` wrote, its values held by the slots of
    /// `entity` when it is given and every value read has a persistent slot there (else by name).
    public mutating func readSnapshot(
        _ what: @autoclosure () -> String, slotsOf entity: EntitySchema? = nil
    ) throws -> Snapshot {
        let objectID = try readObjectID("the object ID of \(what())")
        let version = try readSigned("the version of \(objectID)")
        let count = try readCount("the number of values of \(objectID)")
        if let entity, entity.name == objectID.entityName, count == entity.persistentSlotCount {
            let start = offset
            if let slots = try readSlots(count: count, of: entity, objectID) {
                return Snapshot(
                    objectID: objectID, values: PropertyValues(entity: entity, slots: slots), version: version)
            }
            offset = start
        }
        var values: [String: AttributeValue] = [:]
        values.reserveCapacity(count)
        for _ in 0..<count {
            let start = offset
            let name = try readProperty("a property name of \(objectID)")
            guard values.updateValue(try readValue("'\(name)' of \(objectID)"), forKey: name) == nil else {
                throw corrupt("\(objectID) has two values for '\(name)'", at: start)
            }
        }
        return Snapshot(objectID: objectID, values: values, version: version)
    }

    /// Reads `count` values into `entity`'s persistent slots; `nil` when a name is not one of
    /// them or comes twice (the caller reads the values by name instead).
    private mutating func readSlots(
        count: Int, of entity: EntitySchema, _ objectID: ObjectID
    ) throws -> [AttributeValue]? {
        var slots = [AttributeValue?](repeating: nil, count: count)
        for _ in 0..<count {
            let name = try readProperty("a property name of \(objectID)")
            guard let slot = entity.slot(of: name), slot < count, slots[slot] == nil else { return nil }
            slots[slot] = try readValue("'\(name)' of \(objectID)")
        }
        return slots.map { $0 ?? .null }
    }

    /// Reads a node ``BinaryWriter/write(node:)`` wrote, its values held by the slots of `entity`
    /// as ``readSnapshot(_:slotsOf:)`` says.
    public mutating func readNode(
        _ what: @autoclosure () -> String, slotsOf entity: EntitySchema? = nil
    ) throws -> StoreNode {
        let snapshot = try readSnapshot(what(), slotsOf: entity)
        let id = snapshot.objectID
        let count = try readCount("the number of to-many relationships of \(id)")
        var toMany: [String: [ObjectID]] = [:]
        for _ in 0..<count {
            let start = offset
            let name = try readProperty("a relationship name of \(id)")
            let memberCount = try readCount("the number of members of '\(name)' of \(id)")
            var members: [ObjectID] = []
            members.reserveCapacity(memberCount)
            for _ in 0..<memberCount { members.append(try readObjectID("a member of '\(name)' of \(id)")) }
            guard toMany.updateValue(members, forKey: name) == nil else {
                throw corrupt("\(id) lists the members of '\(name)' twice", at: start)
            }
        }
        return StoreNode(snapshot: snapshot, toManyRelationships: toMany)
    }

    /// Reads a property name ``BinaryWriter/write(property:)`` wrote.
    public mutating func readProperty(_ what: @autoclosure () -> String) throws -> String {
        let index = try readIndex(what(), count: context.propertyNames.count + 1)
        return index == 0 ? try readString(what()) : context.propertyNames[index - 1]
    }

    /// Reads metadata ``BinaryWriter/write(metadata:)`` wrote.
    public mutating func readMetadata() throws -> StoreMetadata {
        let storeType = try readString("the store type")
        let storeIdentifier = try readString("the store identifier")
        var versionHashes: [String: [UInt8]] = [:]
        for _ in 0..<(try readCount("the number of version hashes")) {
            let name = try readString("an entity name of the version hashes")
            versionHashes[name] = Array(try readBytes("the version hash of \(name)"))
        }
        var versionIdentifiers: [String] = []
        for _ in 0..<(try readCount("the number of version identifiers")) {
            versionIdentifiers.append(try readString("a version identifier"))
        }
        let hashesVersion = try readSigned(Int.self, "the version hashes' layout version")
        let frameworkVersion = try readString("the framework version")
        let flagStart = offset
        let modelJSON: Data?
        switch try readByte("the model JSON flag") {
        case 0: modelJSON = nil
        case 1: modelJSON = Data(try readBytes("the model JSON"))
        case let flag: throw corrupt("the model JSON flag is \(flag), not 0 or 1", at: flagStart)
        }
        var userInfo: [String: AttributeValue] = [:]
        for _ in 0..<(try readCount("the number of user keys")) {
            let key = try readString("a user key")
            userInfo[key] = try readValue("the user key '\(key)'")
        }
        return StoreMetadata(
            storeType: storeType, storeIdentifier: storeIdentifier, versionHashes: versionHashes,
            versionIdentifiers: versionIdentifiers, versionHashesVersion: hashesVersion,
            frameworkVersion: frameworkVersion, modelJSON: modelJSON, userInfo: userInfo)
    }
}
