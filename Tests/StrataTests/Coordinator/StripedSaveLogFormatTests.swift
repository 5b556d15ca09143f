import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// The save log's file as other versions and damage leave it: an earlier version's log is read
/// and its saves applied, and a header that is not a sound one is `corrupt` naming the log and
/// what is wrong, before any store is written.
@Suite struct StripedSaveLogFormatTests {
    typealias Stack = StripedSaveTests.Stack

    /// The folder of a pending save, and the log's one decided record.
    static func pendingRecord() throws -> (folder: TemporaryDirectory, record: [UInt8]) {
        let folder = try StripedSaveTests.folderWithAPendingSave()
        let bytes = [UInt8](try Data(contentsOf: folder.file(StripedSaveLog.fileName)))
        return (folder, Array(bytes[StripedSaveLog.headerSize...]))
    }

    static func littleEndian(_ value: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    /// A log as Strata wrote it before the header recorded the decided length (`STRSAVE1`): the
    /// pending save reaches the store that missed it, the torn bytes after the last record are
    /// left out, and the log is emptied in the current format.
    @Test func anEarlierVersionsLogIsReadAndItsSavesApplied() throws {
        let (folder, record) = try Self.pendingRecord()
        let url = folder.file(StripedSaveLog.fileName)
        let torn: [UInt8] = [200, 0, 0, 0, 1, 2, 3, 4, 9]
        try Data(StripedSaveLog.earlierMagic + Self.littleEndian(1) + record + torn).write(to: url)
        let stack = try Stack(folder)
        #expect(try stack.count("Book", in: stack.shelf) == 1)
        #expect(try stack.count("Note", in: stack.pad) == 1)
        #expect(stack.pad.metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] == .integer64(1))
        let emptied = [UInt8](try Data(contentsOf: url))
        #expect(emptied.count == StripedSaveLog.headerSize && emptied.starts(with: StripedSaveLog.magic))
        try stack.saveBook("Emma", note: "Highbury")
        #expect(try stack.count("Note", in: stack.pad) == 2)
        #expect(stack.pad.metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] == .integer64(2))
    }

    /// What is wrong with a header, made from the pending save's record.
    struct Damage: Sendable, CustomStringConvertible {
        var description: String
        var bytes: @Sendable ([UInt8]) -> [UInt8]
        var says: String
    }

    static let damages: [Damage] = [
        Damage(
            description: "another file's signature",
            bytes: { Array("NOTALOG!".utf8) + Array(repeating: 0, count: 40) + $0 },
            says: "does not start with a Strata save log's signature"),
        Damage(
            description: "a flipped bit in the header",
            bytes: { record in
                var header = StripedSaveLog.header(
                    lastNumber: 1, committedLength: StripedSaveLog.headerSize + record.count)
                header[9] ^= 0x10
                return header + record
            }, says: "its header fails its checksum"),
        Damage(
            description: "records starting after the decided length",
            bytes: { record in
                StripedSaveLog.header(
                    lastNumber: 1, committedLength: StripedSaveLog.headerSize,
                    recordsStart: StripedSaveLog.headerSize + 8) + record
            }, says: "its header gives records from byte 40 to byte 32"),
        Damage(
            description: "a file shorter than the decided length",
            bytes: { record in
                StripedSaveLog.header(lastNumber: 1, committedLength: StripedSaveLog.headerSize + record.count + 100)
                    + record
            }, says: "bytes its header says are decided"),
        Damage(
            description: "a decided length ending inside a record's header",
            bytes: { record in
                StripedSaveLog.header(lastNumber: 1, committedLength: StripedSaveLog.headerSize + 4) + record
            }, says: "the record at byte 32 is cut short"),
    ]

    @Test(arguments: damages)
    func aDamagedHeaderIsCorruptNamingTheLog(_ damage: Damage) throws {
        let (folder, record) = try Self.pendingRecord()
        let url = folder.file(StripedSaveLog.fileName)
        try Data(damage.bytes(record)).write(to: url)
        let error = try #require(throws: StoreError.self) { try Stack(folder) }
        #expect(error.code == .corrupt, "\(error)")
        #expect(error.message.contains(url.path), "\(error)")
        #expect(error.message.contains(damage.says), "\(error)")
    }

    /// A store opened read-only that missed a logged save is added as it is, with a warning
    /// naming the log; nothing is written to it, the log keeps the save, and the store gets the
    /// save when it is next added writable.
    @Test func aReadOnlyStoreThatMissedALoggedSaveIsAddedAsItIsWithAWarning() throws {
        let folder = try StripedSaveTests.folderWithAPendingSave()
        let log = CapturedLog()
        do {
            let coordinator = try PersistentStoreCoordinator(
                model: Stack.model, storeTypes: [.jsonFile()], logger: log.logger())
            var readOnly = StoreOptions()
            readOnly.isReadOnly = true
            let pad = try coordinator.addStore(
                type: StoreType.jsonFile().name, configuration: "Pad", at: folder.file("pad.json"), options: readOnly)
            guard case .count(let notes) = try pad.execute(StoreFetchRequest(entityName: "Note", resultType: .count))
            else { return }
            #expect(notes == 0)
            let warnings = log.lines(
                "A read-only store misses a save across stores that a save log holds; open it writable to complete it")
            #expect(warnings.count == 1)
            #expect(warnings.first?.metadata["logs"]?.contains(StripedSaveLog.fileName) == true)
            #expect((StripedSaveTests.logSize(folder) ?? 0) > StripedSaveLog.headerSize)
        }
        let stack = try Stack(folder)
        #expect(try stack.count("Note", in: stack.pad) == 1)
        #expect(StripedSaveTests.logSize(folder) == StripedSaveLog.headerSize)
    }
}
