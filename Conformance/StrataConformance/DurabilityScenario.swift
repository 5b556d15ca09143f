import Foundation
import Strata

/// A deterministic sequence of saves that the worker performs and the durability checks replay:
/// save `i` (from 1) is either an object save or a metadata save, and the state after save `i`
/// depends on nothing else, so a store reopened after a kill can be compared with the exact state
/// after the save it claims to hold.
///
/// An object save updates the `Sample` with the highest serial (`int32` and `string` name the
/// save), deletes the one with the lowest serial when more than five are live, and inserts the
/// `Sample` with serial `i` carrying 2 KB of bytes: three objects change in one save, so a half
/// applied save shows. A metadata save replaces the application's keys with ones naming the save
/// and carrying 4 KB of bytes.
enum DurabilityScenario: String, Sendable, CaseIterable {
    /// Object saves only.
    case objects
    /// Object saves, with every third save a metadata-only save of the open store.
    case metadata
    /// Three object saves, then metadata written with the store closed, through the store type.
    case closedMetadata
    /// Object saves whose inserted `Sample`s carry ``largeValueSize`` bytes, more than Core Data
    /// keeps in a column: stores with external binary storage keep them in files.
    case largeValues

    /// How many bytes an object save of `largeValues` inserts: above Core Data's 128 KiB.
    static let largeValueSize = 160_000

    /// How many bytes an inserted `Sample` carries.
    var valueSize: Int { self == .largeValues ? Self.largeValueSize : 2048 }

    /// How save `index` changes the store.
    enum Step: Equatable {
        /// An object save through a context.
        case objects
        /// A metadata-only save of the open store (`setUserInfo(_:for:)`).
        case openMetadata
        /// Metadata written to the closed file (`setMetadata(_:forStoreOfType:at:)`).
        case closedMetadata
    }

    /// What save `index` does.
    func step(_ index: Int) -> Step {
        switch self {
        case .objects, .largeValues: .objects
        case .metadata: index % 3 == 0 ? .openMetadata : .objects
        case .closedMetadata: index <= 3 ? .objects : .closedMetadata
        }
    }

    /// The state after save `index` (0: a new, empty store), replayed from the start. The bytes
    /// of the objects and keys still there at the end are made once, after the replay, so that
    /// replaying thousands of saves stays cheap.
    func expectedState(after index: Int) -> DurableState {
        var state = DurableState()
        var lastMetadataSave: Int?
        for save in stride(from: 1, through: index, by: 1) {
            switch step(save) {
            case .objects:
                let (updated, deleted) = state.objectSaveTargets()
                if let updated {
                    state.objects[updated]?.int32 = Int32(truncatingIfNeeded: save)
                    state.objects[updated]?.string = Self.updatedString(save)
                    state.objects[updated]?.version += 1
                }
                if let deleted { state.objects[deleted] = nil }
                state.objects[Int64(save)] = DurableState.Sample(
                    int32: 0, string: Self.insertedString(save), binary: Data(), version: 1)
            case .openMetadata, .closedMetadata:
                lastMetadataSave = save
            }
        }
        // An object's serial is the save that inserted it, and so names its bytes.
        for serial in state.objects.keys { state.objects[serial]?.binary = bytes(ofSerial: serial) }
        state.userInfo = lastMetadataSave.map(Self.userInfo) ?? [:]
        return state
    }

    /// Performs save `index` on `stack`, whose store holds the state after save `index - 1`.
    func performObjectSave(_ index: Int, on stack: CheckStack) throws {
        let samples = try stack.objects(ConformanceModel.sample, sortedBy: [FetchSortDescriptor("serial")])
        try stack.run {
            if let updated = samples.last {
                try updated.setValue(.integer32(Int32(truncatingIfNeeded: index)), forKey: "int32")
                try updated.setValue(.string(Self.updatedString(index)), forKey: "string")
            }
            if samples.count > DurableState.liveObjects, let deleted = samples.first {
                try stack.context.delete(deleted)
            }
            let inserted = try stack.context.insertNewObject(forEntityName: ConformanceModel.sample)
            try inserted.setValue(.integer64(Int64(index)), forKey: "serial")
            try inserted.setValue(.integer32(0), forKey: "int32")
            try inserted.setValue(.string(Self.insertedString(index)), forKey: "string")
            try inserted.setValue(.binary(bytes(ofSerial: Int64(index))), forKey: "binary")
            try stack.context.save()
        }
    }

    /// The application's keys a metadata save `index` writes.
    static func userInfo(_ index: Int) -> [String: AttributeValue] {
        [
            "save": .integer64(Int64(index)), "note": .string("metadata save \(index)"),
            "blob": .binary(bytes(index, count: 4096)),
        ]
    }

    /// The save a state is the result of: the highest serial or metadata save it holds.
    static func save(of state: DurableState) -> Int {
        let serial = state.objects.keys.max() ?? 0
        guard case .integer64(let metadataSave) = state.userInfo["save"] else { return Int(serial) }
        return Int(max(serial, metadataSave))
    }

    private static func insertedString(_ index: Int) -> String { "inserted by save \(index)" }

    private static func updatedString(_ index: Int) -> String { "updated by save \(index)" }

    /// The bytes of the `Sample` inserted by save `serial`.
    func bytes(ofSerial serial: Int64) -> Data { Self.bytes(Int(serial), count: valueSize) }

    /// `count` bytes that differ from save to save: the save's number, then a pattern.
    private static func bytes(_ index: Int, count: Int) -> Data {
        let number = withUnsafeBytes(of: Int64(index).littleEndian) { Array($0) }
        return Data(
            (number + (0..<max(count - number.count, 0)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index &* 7) })
                .prefix(count))
    }
}

/// The part of a store the durability checks compare: every `Sample` by serial, and the
/// application's keys.
struct DurableState: Equatable {
    /// The values a durability save writes to a `Sample`, and its version.
    struct Sample: Equatable {
        var int32: Int32
        var string: String
        var binary: Data
        var version: Int64
    }

    /// How many `Sample`s stay live: an object save deletes the oldest beyond these.
    static let liveObjects = 5

    var objects: [Int64: Sample] = [:]
    var userInfo: [String: AttributeValue] = [:]

    /// The serials an object save updates and deletes in this state.
    func objectSaveTargets() -> (updated: Int64?, deleted: Int64?) {
        let serials = objects.keys.sorted()
        return (serials.last, serials.count > Self.liveObjects ? serials.first : nil)
    }

    /// The state of `store`, read through the store SPI.
    init(reading store: any IncrementalStore) throws {
        for snapshot in try store.fetchedSnapshots(StoreFetchRequest(entityName: ConformanceModel.sample)) {
            guard case .integer64(let serial) = snapshot.values["serial"] ?? .null else {
                throw CheckFailure("\(snapshot.objectID) has no integer serial: \(snapshot.values["serial"] ?? .null).")
            }
            guard case .integer32(let int32) = snapshot.values["int32"] ?? .null,
                case .string(let string) = snapshot.values["string"] ?? .null,
                case .binary(let binary) = snapshot.values["binary"] ?? .null
            else {
                throw CheckFailure(
                    "Sample serial \(serial) (\(snapshot.objectID)) lacks a value written in one save: int32 "
                        + "\(snapshot.values["int32"] ?? .null), string \(snapshot.values["string"] ?? .null), "
                        + "binary \(snapshot.values["binary"] ?? .null).")
            }
            objects[serial] = Sample(int32: int32, string: string, binary: binary, version: snapshot.version)
        }
        userInfo = store.metadata.userInfo
    }

    init() {}

    /// How `self` differs from `expected`, object by object and key by key.
    func differences(from expected: DurableState) -> [String] {
        var lines: [String] = []
        for serial in Set(objects.keys).union(expected.objects.keys).sorted() {
            switch (objects[serial], expected.objects[serial]) {
            case (nil, _?): lines.append("Sample serial \(serial) is missing")
            case (_?, nil): lines.append("Sample serial \(serial) should not be there")
            case (let actual?, let wanted?) where actual != wanted:
                if actual.int32 != wanted.int32 {
                    lines.append("Sample serial \(serial) int32 is \(actual.int32), expected \(wanted.int32)")
                }
                if actual.string != wanted.string {
                    lines.append("Sample serial \(serial) string is '\(actual.string)', expected '\(wanted.string)'")
                }
                if actual.binary != wanted.binary {
                    lines.append(
                        "Sample serial \(serial) binary differs (\(actual.binary.count) bytes, expected \(wanted.binary.count))"
                    )
                }
                if actual.version != wanted.version {
                    lines.append("Sample serial \(serial) version is \(actual.version), expected \(wanted.version)")
                }
            default: break
            }
        }
        for key in Set(userInfo.keys).union(expected.userInfo.keys).sorted()
        where userInfo[key] != expected.userInfo[key] {
            lines.append(
                "user key '\(key)' is \(userInfo[key].map { $0.exactDescription } ?? "missing"), "
                    + "expected \(expected.userInfo[key].map { $0.exactDescription } ?? "none")")
        }
        return lines
    }
}
