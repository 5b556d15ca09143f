import Foundation
@_spi(StoreAuthoring) import Strata

extension PushPayload {
    /// The payload in sync's binary form.
    func binaryData() -> Data {
        Data(
            SyncBinary.encode(.push, capacity: 64 + operations.count * 64) {
                $0.write(optionalSequence: seen)
                $0.write(operations: operations)
            })
    }

    /// The payload `data` holds, in sync's binary form or as the JSON kept before it; `source`
    /// names where it was read in errors.
    ///
    /// - Throws: `StoreError` with code `corrupt`, or `DecodingError`, for bytes that are neither.
    init(data: Data, source: String) throws {
        guard SyncBinary.isBinary(data) else {
            self = try JSONDecoder().decode(PushPayload.self, from: data)
            return
        }
        self = try SyncBinary.decode(Array(data), .push, source: source) {
            let seen = try $0.readOptionalSequence("what the push saw")
            return PushPayload(seen: seen, operations: try $0.readOperations())
        }
    }
}

extension MergedObject {
    /// The object's state in sync's binary form.
    func binaryData() -> Data { Data(SyncBinary.encode(.mergedObject) { $0.write(mergedObject: self) }) }

    /// The state `data` holds, in sync's binary form or as the JSON kept before it; `source`
    /// names where it was read in errors.
    ///
    /// - Throws: `StoreError` with code `corrupt`, or `DecodingError`, for bytes that are neither.
    init(data: Data, source: String) throws {
        guard SyncBinary.isBinary(data) else {
            self = try JSONDecoder().decode(MergedObject.self, from: data)
            return
        }
        self = try SyncBinary.decode(Array(data), .mergedObject, source: source) { try $0.readMergedObject() }
    }
}

extension HubWire {
    /// The media type of a pull batch in sync's binary form, which ``HTTPHub`` accepts and
    /// `strata sync-server` answers with when asked (docs/SYNC.md, "Binary form"); both still
    /// speak JSON to peers that do not ask.
    public static let binaryMediaType = "application/vnd.strata.sync"

    /// `batch` in sync's binary form.
    public static func binaryData(of batch: PullBatch) -> Data {
        let operations = batch.entries.reduce(0) { $0 + $1.push.operations.count }
        return Data(
            SyncBinary.encode(.pullBatch, capacity: 64 + operations * 64) { writer in
                writer.write(count: batch.entries.count)
                for entry in batch.entries {
                    writer.write(signed: entry.sequence)
                    writer.write(push: entry.push)
                }
                writer.write(signed: batch.cursor)
                writer.write(byte: batch.isComplete ? 1 : 0)
            })
    }

    /// The batch `data` holds in sync's binary form.
    ///
    /// - Throws: `StoreError` with code `corrupt` naming the byte where `data` is not one.
    public static func batch(fromBinary data: Data) throws -> PullBatch {
        try SyncBinary.decode(Array(data), .pullBatch, source: "a pull batch") { reader in
            let count = try reader.readCount("the entries")
            var entries: [HubEntry] = []
            // Bounded by what the bytes left can hold (an entry takes 35 bytes at least).
            entries.reserveCapacity(min(count, reader.remaining / 35))
            for _ in 0..<count {
                let sequence = try reader.readSigned("an entry's sequence number")
                entries.append(HubEntry(sequence: sequence, push: try reader.readPush()))
            }
            let cursor = try reader.readSigned("the cursor")
            let start = reader.offset
            switch try reader.readByte("whether the batch is complete") {
            case 0: return PullBatch(entries: entries, cursor: cursor, isComplete: false)
            case 1: return PullBatch(entries: entries, cursor: cursor, isComplete: true)
            case let flag: throw reader.corrupt("the batch is marked complete \(flag), not 0 or 1", at: start)
            }
        }
    }
}
