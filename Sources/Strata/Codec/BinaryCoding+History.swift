import Foundation

@_spi(StoreAuthoring) extension BinaryWriter {
    /// Appends who saved a transaction: the timestamp (seconds since 2001-01-01, an IEEE
    /// double), then author, bundle identifier, context name and process name, each a string
    /// value or null.
    public mutating func write(historyInfo info: StoreChangeSet.HistoryInfo) {
        write(fixed: info.timestamp.timeIntervalSinceReferenceDate.bitPattern)
        for text in [info.author, info.bundleIdentifier, info.contextName, info.processIdentifier] {
            write(value: text.map(AttributeValue.string) ?? .null)
        }
    }

    /// Appends one change of a transaction without its number and token: its type (0, 1, 2),
    /// the object's ID, then for an update the count and names of the updated properties, for
    /// a deletion the count of tombstone values and each name and value, in name order (a
    /// deletion without a tombstone reads back with `nil`).
    public mutating func write(historyChange change: PersistentHistoryChange) {
        write(byte: UInt8(change.changeType.rawValue))
        write(objectID: change.changedObjectID)
        switch change.changeType {
        case .insert: break
        case .update:
            let names = (change.updatedProperties ?? []).sorted()
            write(count: names.count)
            for name in names { write(property: name) }
        case .delete:
            let tombstone = (change.tombstone ?? [:]).sorted { $0.key < $1.key }
            write(count: tombstone.count)
            for (name, value) in tombstone {
                write(property: name)
                write(value: value)
            }
        }
    }
}

@_spi(StoreAuthoring) extension BinaryReader {
    /// Reads what ``BinaryWriter/write(historyInfo:)`` wrote.
    public mutating func readHistoryInfo() throws -> StoreChangeSet.HistoryInfo {
        let timestamp = Date(timeIntervalSinceReferenceDate: Double(bitPattern: try readFixed64("the timestamp")))
        var texts: [String?] = []
        for name in ["author", "bundle identifier", "context name", "process name"] {
            let start = offset
            switch try readValue("the \(name)") {
            case .string(let text): texts.append(text)
            case .null: texts.append(nil)
            default: throw corrupt("the \(name) is neither a string nor null", at: start)
            }
        }
        return StoreChangeSet.HistoryInfo(
            timestamp: timestamp, author: texts[0], contextName: texts[2], processIdentifier: texts[3],
            bundleIdentifier: texts[1])
    }

    /// Reads a change ``BinaryWriter/write(historyChange:)`` wrote, as change `identifier` of
    /// the transaction `token`.
    public mutating func readHistoryChange(
        identifier: Int64, token: PersistentHistoryToken
    ) throws -> PersistentHistoryChange {
        let start = offset
        guard let type = PersistentHistoryChange.ChangeType(rawValue: Int(try readByte("a change type"))) else {
            throw corrupt("change \(identifier) has an unknown type", at: start)
        }
        var change = PersistentHistoryChange(
            changeIdentifier: identifier, changedObjectID: try readObjectID("a changed object"), changeType: type,
            transactionToken: token)
        switch type {
        case .insert: break
        case .update:
            change.updatedProperties = Set(
                try (0..<readCount("the number of updated properties")).map { _ in
                    try readProperty("an updated property")
                })
        case .delete:
            let count = try readCount("the number of tombstone values")
            guard count > 0 else { break }
            var tombstone: [String: AttributeValue] = [:]
            for _ in 0..<count {
                let name = try readProperty("a tombstone attribute")
                tombstone[name] = try readValue("the tombstone of '\(name)'")
            }
            change.tombstone = tombstone
        }
        return change
    }
}
