import CStrataLMDB
import Foundation
@_spi(StoreAuthoring) import Strata

/// How an LMDB store keeps its persistent history (docs/HISTORY.md): two named databases in
/// the store's environment, written in the save's own write transaction.
///
/// - `strata.history.transactions`: by transaction number (8 bytes, big-endian), a record of
///   the timestamp, author, bundle identifier, context name and process name.
/// - `strata.history.changes`: by the same key, a record of the transaction's first change
///   number and its changes: type, object ID, and the updated property names of an update or
///   the tombstone of a deletion.
/// - The meta key `history` holds the last transaction and change numbers handed out, so that
///   neither is handed out twice, also after the history is deleted.
struct LMDBHistoryLayout: Sendable {
    static let transactionDatabase = "strata.history.transactions"
    static let changeDatabase = "strata.history.changes"
    static let countersKey = Array("history".utf8)

    let transactions: MDB_dbi
    let changes: MDB_dbi

    /// One transaction's fields, as the transaction database holds them.
    struct Header {
        var number: Int64
        var info: StoreChangeSet.HistoryInfo
    }

    /// The record of a transaction's fields.
    static func encode(_ info: StoreChangeSet.HistoryInfo) -> [UInt8] {
        BinaryRecord.encode { writer in
            writer.write(fixed: info.timestamp.timeIntervalSinceReferenceDate.bitPattern)
            for text in [info.author, info.bundleIdentifier, info.contextName, info.processIdentifier] {
                writer.write(value: text.map(AttributeValue.string) ?? .null)
            }
        }
    }

    /// The fields in a record ``encode(_:)`` made.
    static func decodeHeader(_ bytes: [UInt8], number: Int64, source: String) throws -> Header {
        try BinaryRecord.decode(bytes, source: "\(source), history transaction \(number)") { reader in
            let timestamp = Date(
                timeIntervalSinceReferenceDate: Double(bitPattern: try reader.readFixed64("the timestamp")))
            var texts: [String?] = []
            for name in ["author", "bundle identifier", "context name", "process name"] {
                let start = reader.offset
                switch try reader.readValue("the \(name)") {
                case .string(let text): texts.append(text)
                case .null: texts.append(nil)
                default: throw reader.corrupt("the \(name) is neither a string nor null", at: start)
                }
            }
            return Header(
                number: number,
                info: StoreChangeSet.HistoryInfo(
                    timestamp: timestamp, author: texts[0], contextName: texts[2], processIdentifier: texts[3],
                    bundleIdentifier: texts[1]))
        }
    }

    /// The record of `changes`, numbered from `firstChange`.
    static func encode(_ changes: [Change], firstChange: Int64, context: BinaryCodingContext) -> [UInt8] {
        BinaryRecord.encode(context: context) { writer in
            writer.write(signed: firstChange)
            writer.write(count: changes.count)
            for change in changes {
                writer.write(byte: UInt8(change.type.rawValue))
                writer.write(objectID: change.objectID)
                switch change.type {
                case .insert: break
                case .update:
                    writer.write(count: change.updatedProperties.count)
                    for name in change.updatedProperties.sorted() { writer.write(property: name) }
                case .delete:
                    writer.write(count: change.tombstone.count)
                    for (name, value) in change.tombstone.sorted(by: { $0.key < $1.key }) {
                        writer.write(property: name)
                        writer.write(value: value)
                    }
                }
            }
        }
    }

    /// The changes in a record ``encode(_:firstChange:context:)`` made, as `token`'s.
    static func decodeChanges(
        _ bytes: [UInt8], token: PersistentHistoryToken, context: BinaryCodingContext, source: String
    ) throws -> [PersistentHistoryChange] {
        let what = "\(source), the changes of history transaction \(token.transactionNumber)"
        return try BinaryRecord.decode(bytes, source: what, context: context) { reader in
            let first = try reader.readSigned("the first change number")
            return try (0..<reader.readCount("the number of changes")).map { index in
                let start = reader.offset
                guard let type = PersistentHistoryChange.ChangeType(rawValue: Int(try reader.readByte("a change type")))
                else { throw reader.corrupt("change \(index) has an unknown type", at: start) }
                var change = PersistentHistoryChange(
                    changeIdentifier: first + Int64(index),
                    changedObjectID: try reader.readObjectID("a changed object"),
                    changeType: type, transactionToken: token)
                switch type {
                case .insert: break
                case .update:
                    change.updatedProperties = Set(
                        try (0..<reader.readCount("the number of updated properties")).map { _ in
                            try reader.readProperty("an updated property")
                        })
                case .delete:
                    var tombstone: [String: AttributeValue] = [:]
                    for _ in 0..<(try reader.readCount("the number of tombstone values")) {
                        let name = try reader.readProperty("a tombstone attribute")
                        tombstone[name] = try reader.readValue("the tombstone of '\(name)'")
                    }
                    change.tombstone = tombstone
                }
                return change
            }
        }
    }

    /// One object's change, as a save records it.
    struct Change {
        var objectID: ObjectID
        var type: PersistentHistoryChange.ChangeType
        var updatedProperties: Set<String> = []
        var tombstone: [String: AttributeValue] = [:]
    }

    /// The last transaction and change numbers handed out, from the meta record `bytes`.
    static func decodeCounters(_ bytes: [UInt8]?, source: String) throws -> (transaction: Int64, change: Int64) {
        guard let bytes else { return (0, 0) }
        return try BinaryRecord.decode(bytes, source: "\(source), the history counters") { reader in
            (try reader.readSigned("the last transaction number"), try reader.readSigned("the last change number"))
        }
    }

    /// The meta record of the last transaction and change numbers handed out.
    static func encodeCounters(transaction: Int64, change: Int64) -> [UInt8] {
        BinaryRecord.encode { writer in
            writer.write(signed: transaction)
            writer.write(signed: change)
        }
    }
}
