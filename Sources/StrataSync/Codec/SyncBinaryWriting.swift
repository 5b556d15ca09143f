import Foundation
@_spi(StoreAuthoring) import Strata

/// Sync's binary form (docs/SYNC.md, "Binary form"), written with Strata's value codec: what a
/// hub's log, a replica's pending pushes and every merged object's record hold, and what
/// ``HTTPHub`` and `strata sync-server` exchange. UUIDs are 16 bytes, timestamps a zigzag
/// varint of milliseconds, a varint counter and the replica's 16 bytes, names UTF-8 with their
/// length, values as the binary store writes them.
enum SyncBinary {
    /// The first bytes of every payload: "SY", then the form's version.
    static let header: [UInt8] = [0x53, 0x59, 1]

    /// What a payload holds, its fourth byte.
    enum Kind: UInt8 {
        case push = 1
        case mergedObject = 2
        case pullBatch = 4
    }

    /// Whether `data` begins as sync's binary form does (anything else is read as JSON, the
    /// form kept before).
    static func isBinary(_ data: some Collection<UInt8>) -> Bool { data.starts(with: header.prefix(2)) }

    /// The bytes of a `kind` payload `body` writes.
    static func encode(_ kind: Kind, capacity: Int = 256, _ body: (inout BinaryWriter) -> Void) -> [UInt8] {
        var writer = BinaryWriter(reservingCapacity: capacity)
        writer.write(raw: header)
        writer.write(byte: kind.rawValue)
        body(&writer)
        return writer.bytes
    }
}

extension BinaryWriter {
    mutating func write(uuid: UUID) { withUnsafeBytes(of: uuid.uuid) { write(raw: $0) } }

    mutating func write(globalID: GlobalID) { write(uuid: globalID.uuid) }

    mutating func write(stamp: SyncTimestamp) {
        write(signed: stamp.milliseconds)
        write(varint: UInt64(stamp.counter))
        write(uuid: stamp.replica.uuid)
    }

    mutating func write(optionalStamp stamp: SyncTimestamp?) {
        guard let stamp else { return write(byte: 0) }
        write(byte: 1)
        write(stamp: stamp)
    }

    mutating func write(syncValue value: SyncValue) {
        switch value {
        case .attribute(let attribute):
            write(byte: 0)
            write(value: attribute)
        case .reference(nil): write(byte: 1)
        case .reference(let target?):
            write(byte: 2)
            write(globalID: target)
        }
    }

    mutating func write(operation: SyncOperation) {
        write(globalID: operation.object)
        write(string: operation.entity)
        write(stamp: operation.stamp)
        switch operation.change {
        case .insert: write(byte: 0)
        case .set(let key, let value):
            write(byte: 1)
            write(string: key)
            write(syncValue: value)
        case .add(let key, let member):
            write(byte: 2)
            write(string: key)
            write(globalID: member)
        case .remove(let key, let member, let observed):
            write(byte: 3)
            write(string: key)
            write(globalID: member)
            write(count: observed.count)
            for stamp in observed { write(stamp: stamp) }
        case .place(let key, let member, let position):
            write(byte: 4)
            write(string: key)
            write(globalID: member)
            write(string: position.text)
        case .delete: write(byte: 5)
        }
    }

    mutating func write(operations: [SyncOperation]) {
        write(count: operations.count)
        for operation in operations { write(operation: operation) }
    }

    mutating func write(optionalSequence sequence: Int64?) {
        guard let sequence else { return write(byte: 0) }
        write(byte: 1)
        write(signed: sequence)
    }

    mutating func write(push: SyncPush) {
        write(uuid: push.id)
        write(uuid: push.replica.uuid)
        write(optionalSequence: push.seen)
        write(operations: push.operations)
    }

    /// Writes `object`'s fields; maps and sets in sorted order, so that one state always makes
    /// the same bytes.
    mutating func write(mergedObject object: MergedObject) {
        write(string: object.entity)
        write(count: object.registers.count)
        for (key, register) in object.registers.sorted(by: { $0.key < $1.key }) {
            write(string: key)
            write(syncValue: register.value)
            write(stamp: register.stamp)
        }
        write(count: object.relationships.count)
        for (key, set) in object.relationships.sorted(by: { $0.key < $1.key }) {
            write(string: key)
            write(tags: set.additions)
            write(tags: set.removals)
        }
        write(count: object.placements.count)
        for (key, members) in object.placements.sorted(by: { $0.key < $1.key }) {
            write(string: key)
            write(count: members.count)
            for (member, placement) in members.sorted(by: { $0.key < $1.key }) {
                write(globalID: member)
                write(string: placement.position.text)
                write(stamp: placement.stamp)
            }
        }
        write(optionalStamp: object.deletion)
        write(optionalStamp: object.lastWrite)
        write(optionalStamp: object.insertion)
    }

    private mutating func write(tags: [GlobalID: Set<SyncTimestamp>]) {
        write(count: tags.count)
        for (member, stamps) in tags.sorted(by: { $0.key < $1.key }) {
            write(globalID: member)
            write(count: stamps.count)
            for stamp in stamps.sorted() { write(stamp: stamp) }
        }
    }
}
