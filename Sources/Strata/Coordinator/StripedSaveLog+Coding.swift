/// How a ``StripedSaveLog`` entry is written in a record (docs/STRIPED-SAVES.md): its number
/// (zigzag), the number of stores, and for each its identifier and change set.
///
/// A change set is written as its inserted and updated objects (each a node whose version is
/// the expected version, then 0 or 1 and the changed keys), its deletions (object ID and
/// expected version), 0 or 1 and the user keys, and 0 or 1 and the history info.
extension BinaryWriter {
    mutating func write(entry: StripedSaveLog.Entry) {
        write(signed: entry.number)
        write(count: entry.changes.count)
        for (identifier, changes) in entry.changes {
            write(string: identifier)
            write(changeSet: changes)
        }
    }

    private mutating func write(changeSet changes: StoreChangeSet) {
        for group in [changes.inserted, changes.updated] {
            write(count: group.count)
            for change in group {
                write(
                    node: StoreNode(
                        snapshot: Snapshot(
                            objectID: change.objectID, values: change.values, version: change.expectedVersion),
                        toManyRelationships: change.toManyRelationships))
                if let keys = change.changedKeys {
                    write(byte: 1)
                    write(count: keys.count)
                    for key in keys.sorted() { write(string: key) }
                } else {
                    write(byte: 0)
                }
            }
        }
        write(count: changes.deleted.count)
        for deletion in changes.deleted {
            write(objectID: deletion.objectID)
            write(signed: deletion.expectedVersion)
        }
        if let userInfo = changes.userInfo {
            write(byte: 1)
            write(count: userInfo.count)
            for (key, value) in userInfo.sorted(by: { $0.key < $1.key }) {
                write(string: key)
                write(value: value)
            }
        } else {
            write(byte: 0)
        }
        if let history = changes.history {
            write(byte: 1)
            write(historyInfo: history)
        } else {
            write(byte: 0)
        }
    }
}

extension BinaryReader {
    /// Reads an entry ``BinaryWriter/write(entry:)`` wrote, its values held by the slots of
    /// `schema`'s entities.
    mutating func readEntry(schema: ModelSchema) throws -> StripedSaveLog.Entry {
        let number = try readSigned("the number of a save")
        var changes: [(storeIdentifier: String, changes: StoreChangeSet)] = []
        for _ in 0..<(try readCount("the number of stores of save \(number)")) {
            let identifier = try readString("a store identifier of save \(number)")
            changes.append((identifier, try readChangeSet(schema: schema, of: "save \(number) to \(identifier)")))
        }
        return StripedSaveLog.Entry(number: number, changes: changes)
    }

    private mutating func readChangeSet(schema: ModelSchema, of save: String) throws -> StoreChangeSet {
        var groups: [[StoreChangeSet.ObjectChange]] = []
        for kind in ["inserted", "updated"] {
            var group: [StoreChangeSet.ObjectChange] = []
            for _ in 0..<(try readCount("the number of \(kind) objects of \(save)")) {
                let start = offset
                let objectID = try readObjectID("an \(kind) object of \(save)")
                offset = start
                let node = try readNode(
                    "an \(kind) object of \(save)", slotsOf: schema.entitiesByName[objectID.entityName])
                var keys: Set<String>?
                if try readFlag("whether \(objectID) lists its changed keys") {
                    keys = Set(
                        try (0..<readCount("the changed keys of \(objectID)")).map { _ in
                            try readString("a changed key of \(objectID)")
                        })
                }
                group.append(
                    .init(
                        objectID: node.snapshot.objectID, values: node.snapshot.values,
                        toManyRelationships: node.toManyRelationships, expectedVersion: node.snapshot.version,
                        changedKeys: keys))
            }
            groups.append(group)
        }
        var deleted: [StoreChangeSet.Deletion] = []
        for _ in 0..<(try readCount("the number of deleted objects of \(save)")) {
            let objectID = try readObjectID("a deleted object of \(save)")
            deleted.append(.init(objectID: objectID, expectedVersion: try readSigned("the version of \(objectID)")))
        }
        var userInfo: [String: AttributeValue]?
        if try readFlag("whether \(save) sets user keys") {
            var keys: [String: AttributeValue] = [:]
            for _ in 0..<(try readCount("the number of user keys of \(save)")) {
                let key = try readString("a user key of \(save)")
                keys[key] = try readValue("user key '\(key)' of \(save)")
            }
            userInfo = keys
        }
        let history = try readFlag("whether \(save) has history info") ? try readHistoryInfo() : nil
        return StoreChangeSet(
            inserted: groups[0], updated: groups[1], deleted: deleted, userInfo: userInfo, history: history)
    }

    private mutating func readFlag(_ what: @autoclosure () -> String) throws -> Bool {
        let start = offset
        switch try readByte(what()) {
        case 0: return false
        case 1: return true
        default: throw corrupt("\(what()) is neither 0 nor 1", at: start)
        }
    }
}
