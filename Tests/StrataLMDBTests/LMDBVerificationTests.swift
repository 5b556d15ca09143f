import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataLMDB

/// The whole-file check before liblmdb maps a data file runs when the file changed since the
/// last check Strata recorded beside it (`<file>-verified`), for a file without such a record,
/// and always when asked; a file written, copied or replaced after the record is checked again.
@Suite struct LMDBVerificationTests {
    static let model = ManagedObjectModel {
        EntityDescription("Note") { AttributeDescription("text", .string) }
    }

    /// A folder holding `notes.lmdb` with one saved note, closed.
    static func store() throws -> (folder: TemporaryDirectory, path: String) {
        let folder = try TemporaryDirectory()
        let url = folder.file("notes.lmdb")
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.lmdb])
        let store = try coordinator.addStore(type: "LMDB", at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Note").setValue(.string("first"), forKey: "text")
            try context.save()
        }
        try coordinator.remove(store)
        return (folder, url.path)
    }

    /// Checks the file at `path` as opening does, keeping the record of a check that passed.
    static func verify(_ path: String, _ verification: LMDBVerification = .whenChanged) throws
        -> LMDBStoreFile.FileCheck
    {
        let (check, passed) = try LMDBStoreFile.verifyExistingFile(at: path, verification: verification)
        passed?.keep(forFileAt: path)
        return check
    }

    @Test func aFileUnchangedSinceItsLastCheckIsNotCheckedAgain() throws {
        let (folder, path) = try Self.store()
        defer { withExtendedLifetime(folder) {} }
        // The save changed the file after the opening's check: it is checked once more.
        #expect(try Self.verify(path) == .checked)
        #expect(try Self.verify(path) == .unchangedSinceCheck)
        #expect(try Self.verify(path) == .unchangedSinceCheck)
        #expect(try Self.verify(path, .always) == .checked)
        #expect(try Self.verify(path, .never) == .notChecked)
        #expect(FileManager.default.fileExists(atPath: path + LMDBVerificationRecord.suffix))
    }

    /// Each way a file can change after its check: written in place (its change time moves even
    /// when its modification time is set back), copied with its record to another path (a new
    /// inode), replaced by another file, or given a damaged record.
    @Test(arguments: ["written", "copied", "replaced", "damaged record", "no record"])
    func aFileChangedSinceItsLastCheckIsCheckedAgain(_ change: String) throws {
        let (folder, path) = try Self.store()
        _ = try Self.verify(path)
        try #require(try Self.verify(path) == .unchangedSinceCheck)
        var checked = path
        switch change {
        case "written":
            let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            let handle = try #require(FileHandle(forUpdatingAtPath: path))
            try handle.seekToEnd()
            let end = try handle.offset()
            try handle.seek(toOffset: end - 1)
            let last = try handle.read(upToCount: 1) ?? Data([0])
            try handle.seek(toOffset: end - 1)
            try handle.write(contentsOf: last)
            try handle.close()
            try FileManager.default.setAttributes([.modificationDate: before as Any], ofItemAtPath: path)
        case "copied":
            checked = folder.file("copy.lmdb").path
            try FileManager.default.copyItem(atPath: path, toPath: checked)
            try FileManager.default.copyItem(
                atPath: path + LMDBVerificationRecord.suffix, toPath: checked + LMDBVerificationRecord.suffix)
        case "replaced":
            let other = try Self.store()
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.copyItem(atPath: other.path, toPath: path)
        case "damaged record":
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + LMDBVerificationRecord.suffix)))
            bytes[20] ^= 0x01
            try Data(bytes).write(to: URL(fileURLWithPath: path + LMDBVerificationRecord.suffix))
        default:
            try FileManager.default.removeItem(atPath: path + LMDBVerificationRecord.suffix)
        }
        #expect(try Self.verify(checked) == .checked, "\(change)")
        #expect(try Self.verify(checked) == .unchangedSinceCheck, "\(change)")
    }

    /// A damaged page in a file written after its check is refused as before: the record never
    /// vouches for a file that changed.
    @Test func aFileDamagedAfterItsCheckIsCorrupt() throws {
        let (folder, path) = try Self.store()
        defer { withExtendedLifetime(folder) {} }
        _ = try Self.verify(path)
        try #require(try Self.verify(path) == .unchangedSinceCheck)
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        // The third page's header: its flags, which no page of a sound file has as 0xFFFF.
        let pageSize = try Self.pageSize(path)
        try handle.seek(toOffset: UInt64(2 * pageSize + 10))
        try handle.write(contentsOf: Data([0xFF, 0xFF]))
        try handle.close()
        let error = try #require(throws: StoreError.self) {
            let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.lmdb])
            try coordinator.addStore(type: "LMDB", at: URL(fileURLWithPath: path))
        }
        #expect(error.code == .corrupt)
    }

    static func pageSize(_ path: String) throws -> Int {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)).prefix(64))
        return Int(bytes[40]) | Int(bytes[41]) << 8 | Int(bytes[42]) << 16 | Int(bytes[43]) << 24
    }

    /// A record that is a symbolic link is `corrupt` before anything reads or writes it.
    @Test func aRecordThatIsALinkIsCorrupt() throws {
        let (folder, path) = try Self.store()
        let victim = folder.file("victim")
        try Data("kept".utf8).write(to: victim)
        try? FileManager.default.removeItem(atPath: path + LMDBVerificationRecord.suffix)
        try FileManager.default.createSymbolicLink(
            atPath: path + LMDBVerificationRecord.suffix, withDestinationPath: victim.path)
        let error = try #require(throws: StoreError.self) {
            let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.lmdb])
            try coordinator.addStore(type: "LMDB", at: URL(fileURLWithPath: path))
        }
        #expect(error.code == .corrupt)
        #expect(try Data(contentsOf: victim) == Data("kept".utf8))
    }

    @Test func theSettingReadsAsItsCasesAndRefusesOthers() throws {
        let (folder, path) = try Self.store()
        defer { withExtendedLifetime(folder) {} }
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.lmdb])
        var options = StoreOptions()
        options.settings["verification"] = "sometimes"
        let error = try #require(throws: StoreError.self) {
            try coordinator.addStore(type: "LMDB", at: URL(fileURLWithPath: path), options: options)
        }
        #expect(error.code == .invalidOption && error.message.contains("always, whenChanged, never"))
        options.settings["verification"] = "always"
        try coordinator.addStore(type: "LMDB", at: URL(fileURLWithPath: path), options: options)
    }

    /// Destroying the store removes its record with its other files.
    @Test func destroyingTheStoreRemovesItsRecord() throws {
        let (folder, path) = try Self.store()
        defer { withExtendedLifetime(folder) {} }
        _ = try Self.verify(path)
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.lmdb])
        try coordinator.destroyStore(type: "LMDB", at: URL(fileURLWithPath: path))
        #expect(!FileManager.default.fileExists(atPath: path + LMDBVerificationRecord.suffix))
    }
}
