import CStrataLMDB
import Foundation
@_spi(StoreAuthoring) import Strata

/// How an LMDB store keeps its persistent history (docs/HISTORY.md): two named databases in
/// the store's environment, written in the save's own write transaction.
///
/// - `strata.history.transactions`: by transaction number (8 bytes, big-endian), a record of
///   who saved and when (``BinaryWriter/write(historyInfo:)``).
/// - `strata.history.changes`: by the same key, a record of the transaction's first change
///   number and its changes (``BinaryWriter/write(historyChange:)``).
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
        BinaryRecord.encode { $0.write(historyInfo: info) }
    }

    /// The fields in a record ``encode(_:)`` made.
    static func decodeHeader(_ bytes: [UInt8], number: Int64, source: String) throws -> Header {
        try BinaryRecord.decode(bytes, source: "\(source), history transaction \(number)") { reader in
            Header(number: number, info: try reader.readHistoryInfo())
        }
    }

    /// The record of `changes`, the first of which is numbered `firstChange`.
    static func encode(_ changes: [PersistentHistoryChange], firstChange: Int64, context: BinaryCodingContext)
        -> [UInt8]
    {
        BinaryRecord.encode(context: context) { writer in
            writer.write(signed: firstChange)
            writer.write(count: changes.count)
            for change in changes { writer.write(historyChange: change) }
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
                try reader.readHistoryChange(
                    identifier: StoredCounter.adding(Int64(index), to: first, "\(what), numbered from \(first),"),
                    token: token)
            }
        }
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
