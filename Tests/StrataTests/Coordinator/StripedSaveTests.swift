import Foundation
import StrataTestSupport
import Testing

@_spi(FaultInjection) @testable import Strata

/// Saves across stores: all or nothing, checked before any store is written, logged when two
/// stores have files, and completed from the log when the stores are added again.
@Suite struct StripedSaveTests {
    /// Two JSON file stores in one folder: books in one, notes in the other.
    struct Stack {
        static let model: ManagedObjectModel = {
            let model = ManagedObjectModel {
                EntityDescription("Book") {
                    AttributeDescription("title", .string)
                    AttributeDescription("isbn", .string)
                    UniquenessConstraint("isbn")
                }
                EntityDescription("Note") {
                    AttributeDescription("text", .string)
                }
                ConfigurationDescription("Shelf", entities: ["Book"])
                ConfigurationDescription("Pad", entities: ["Note"])
            }
            return model
        }()

        let coordinator: PersistentStoreCoordinator
        let shelf: any IncrementalStore
        let pad: any IncrementalStore
        let context: ManagedObjectContext

        /// Adds the stores in `folder`, the pad first when `padFirst`; `pad` wraps the pad.
        init(
            _ folder: TemporaryDirectory, padFirst: Bool = false,
            pad wrap: (any IncrementalStore) -> any IncrementalStore = { $0 }
        ) throws {
            coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.jsonFile()])
            let open = { (configuration: String, name: String) in
                try StoreType.jsonFile().open(
                    StoreOpenRequest(model: Self.model, configurationName: configuration, url: folder.file(name)))
            }
            let shelf = try open("Shelf", "shelf.json")
            let pad = wrap(try open("Pad", "pad.json"))
            for store in padFirst ? [pad, shelf] : [shelf, pad] { try coordinator.add(store) }
            (self.shelf, self.pad) = (shelf, pad)
            context = ManagedObjectContext(coordinator: coordinator)
        }

        func insert(_ entity: String, _ values: [String: AttributeValue]) throws -> ManagedObject {
            let object = try context.insertNewObject(forEntityName: entity)
            for (key, value) in values { try object.setValue(value, forKey: key) }
            return object
        }

        /// Saves a new book and a new note: a save across both stores.
        func saveBook(_ title: String, note text: String) throws {
            try context.performAndWait {
                _ = try insert("Book", ["title": .string(title)])
                _ = try insert("Note", ["text": .string(text)])
                try context.save()
            }
        }

        func count(_ entity: String, in store: any IncrementalStore) throws -> Int {
            guard case .count(let count) = try store.execute(StoreFetchRequest(entityName: entity, resultType: .count))
            else { return -1 }
            return count
        }
    }

    static func logSize(_ folder: TemporaryDirectory) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: folder.file(".strata-save-log").path))?[.size] as? Int
    }

    @Test func aSaveAcrossTwoFileStoresWritesBothAndRecordsOneNumber() throws {
        let folder = try TemporaryDirectory()
        let stack = try Stack(folder)
        try stack.saveBook("Dune", note: "spice")
        #expect(try stack.count("Book", in: stack.shelf) == 1)
        #expect(try stack.count("Note", in: stack.pad) == 1)
        let numbers = [stack.shelf, stack.pad].map { $0.metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] }
        #expect(numbers == [.integer64(1), .integer64(1)])
        #expect(Self.logSize(folder) == StripedSaveLog.headerSize)

        try stack.saveBook("Emma", note: "Highbury")
        #expect(stack.shelf.metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] == .integer64(2))
    }

    @Test func aSaveTouchingOneStoreRecordsNothing() throws {
        let folder = try TemporaryDirectory()
        let stack = try Stack(folder)
        try stack.context.performAndWait {
            _ = try stack.insert("Book", ["title": "Dune"])
            try stack.context.save()
        }
        #expect(stack.shelf.metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] == nil)
        #expect(Self.logSize(folder) == nil)
    }

    @Test func aConflictInOneStoreWritesNeitherAndListsTheConflictsOfBoth() throws {
        let folder = try TemporaryDirectory()
        let stack = try Stack(folder)
        let (book, note) = try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            let note = try stack.insert("Note", ["text": "spice"])
            try stack.context.save()
            return (book.objectID, note.objectID)
        }
        // Another context changes both objects first.
        let other = ManagedObjectContext(coordinator: stack.coordinator)
        try other.performAndWait {
            try other.existingObject(with: book).setValue("Dune Messiah", forKey: "title")
            try other.existingObject(with: note).setValue("worms", forKey: "text")
            try other.save()
        }
        try stack.context.performAndWait {
            try stack.context.existingObject(with: book).setValue("Children of Dune", forKey: "title")
            try stack.context.existingObject(with: note).setValue("sand", forKey: "text")
            let added = try stack.insert("Book", ["title": "Unwritten"])
            let error = try #require(throws: ContextError.self) { try stack.context.save() }
            #expect(error.code == .mergeConflict)
            #expect(Set(error.conflicts.map(\.objectID)) == [book, note])
            #expect(error.message.contains("stores"))
            #expect(added.objectID.isTemporary)
        }
        #expect(try stack.count("Book", in: stack.shelf) == 1)
        #expect(try stack.shelf.snapshot(for: book)?.values["title"] == "Dune Messiah")
        #expect(try stack.pad.snapshot(for: note)?.values["text"] == "worms")

        // The merge policy settles the conflicts of both stores at once.
        try stack.context.performAndWait {
            stack.context.mergePolicy = .mergeByPropertyObjectTrump
            try stack.context.save()
        }
        #expect(try stack.shelf.snapshot(for: book)?.values["title"] == "Children of Dune")
        #expect(try stack.pad.snapshot(for: note)?.values["text"] == "sand")
        #expect(try stack.count("Book", in: stack.shelf) == 2)
    }

    @Test func aUniquenessClashInOneStoreWritesNeither() throws {
        let folder = try TemporaryDirectory()
        let stack = try Stack(folder)
        try stack.context.performAndWait {
            _ = try stack.insert("Book", ["title": "Dune", "isbn": "0441013597"])
            try stack.context.save()
            let copy = try stack.insert("Book", ["title": "Dune (copy)", "isbn": "0441013597"])
            let note = try stack.insert("Note", ["text": "spice"])
            let error = try #require(throws: ContextError.self) { try stack.context.save() }
            #expect(error.code == .constraintConflict)
            #expect(error.constraintConflicts.map(\.values) == [["0441013597"]])
            #expect(copy.objectID.isTemporary && note.objectID.isTemporary)
        }
        #expect(try stack.count("Book", in: stack.shelf) == 1)
        #expect(try stack.count("Note", in: stack.pad) == 0)
    }

    @Test func replacingUserKeysKeepsTheRecordedNumber() throws {
        let folder = try TemporaryDirectory()
        let stack = try Stack(folder)
        try stack.saveBook("Dune", note: "spice")
        try stack.coordinator.setUserInfo(["owner": "ada"], for: stack.pad)
        #expect(stack.pad.metadata.userInfo["owner"] == "ada")
        #expect(stack.pad.metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] == .integer64(1))
    }

    /// A pad whose first save of objects fails, as a full disk would make it: the save is
    /// decided by then. (The coordinator makes the pad's file first, saving its user keys.)
    final class FailingPad: ForwardingStore, @unchecked Sendable {
        // Safe: `failures` is only touched through its lock.
        let failures = Locked(1)

        override func save(_ changes: StoreChangeSet, committingAfter decision: () throws -> Void) throws {
            let fails =
                changes.changesObjects
                && failures.withLock { count in
                    defer { count -= 1 }
                    return count > 0
                }
            try base.save(changes) {
                try decision()
                if fails { throw StoreError(code: .io, message: "No space left on device.") }
            }
        }
    }

    @Test(arguments: [false, true])
    func aStoreThatMissedALoggedSaveGetsItWhenAddedAgain(padFirst: Bool) throws {
        let folder = try TemporaryDirectory()
        let book: ObjectID
        do {
            let stack = try Stack(folder, pad: { FailingPad($0) })
            book = try stack.context.performAndWait {
                let book = try stack.insert("Book", ["title": "Dune"])
                let note = try stack.insert("Note", ["text": "spice"])
                let error = try #require(throws: StoreError.self) { try stack.context.save() }
                #expect(error.code == .savePending)
                #expect(error.message.contains("removed from the coordinator"))
                #expect(error.message.contains(".strata-save-log"))
                // The save is decided: the context holds it as saved.
                #expect(!book.objectID.isTemporary && !note.objectID.isTemporary)
                #expect(!stack.context.hasChanges)
                return book.objectID
            }
            #expect(try stack.count("Book", in: stack.shelf) == 1)
            #expect(stack.coordinator.stores.map(\.identifier) == [stack.shelf.identifier])
            #expect((Self.logSize(folder) ?? 0) > StripedSaveLog.headerSize)
        }
        let stack = try Stack(folder, padFirst: padFirst)
        #expect(try stack.count("Book", in: stack.shelf) == 1)
        #expect(try stack.count("Note", in: stack.pad) == 1)
        #expect(stack.pad.metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] == .integer64(1))
        #expect(try stack.shelf.snapshot(for: book)?.version == 1)
        #expect(Self.logSize(folder) == StripedSaveLog.headerSize)

        // The pad hands out IDs after the ones the completed save used.
        try stack.context.performAndWait {
            _ = try stack.insert("Note", ["text": "worms"])
            try stack.context.save()
        }
        #expect(try stack.count("Note", in: stack.pad) == 2)
    }

    @Test func aTornRecordAtTheEndOfTheLogIsDropped() throws {
        let folder = try TemporaryDirectory()
        do {
            let stack = try Stack(folder)
            try stack.saveBook("Dune", note: "spice")
        }
        // What a kill in the middle of an append leaves: a record's header and part of it.
        let log = try FileHandle(forWritingTo: folder.file(".strata-save-log"))
        try log.seekToEnd()
        try log.write(contentsOf: Data([200, 0, 0, 0, 1, 2, 3, 4, 9, 9, 9]))
        try log.close()
        let stack = try Stack(folder)
        try stack.saveBook("Emma", note: "Highbury")
        #expect(try stack.count("Book", in: stack.shelf) == 2)
        #expect(try stack.count("Note", in: stack.pad) == 2)
        #expect(Self.logSize(folder) == StripedSaveLog.headerSize)
    }

    @Test func aDamagedRecordBeforeTheLastIsCorruptNamingTheLog() throws {
        let folder = try Self.folderWithAPendingSave()
        // The pending record, damaged, then a whole copy of it after it.
        let url = folder.file(".strata-save-log")
        var bytes = [UInt8](try Data(contentsOf: url))
        let record = Array(bytes[StripedSaveLog.headerSize...])
        bytes[bytes.count - 1] ^= 0xFF
        try Data(bytes + record).write(to: url)
        let error = try #require(throws: StoreError.self) { try Stack(folder) }
        #expect(error.code == .corrupt)
        #expect(error.message.contains(url.path))
        #expect(error.message.contains("record at byte \(StripedSaveLog.headerSize)"))
        #expect(error.message.contains("fails its checksum"))
    }

    /// Two decided records, the first's length field damaged so that it runs past the end: once
    /// read as a torn last record (the later save vanished), now `corrupt`.
    @Test func aDamagedLengthBeforeTheLastRecordIsCorrupt() throws {
        let folder = try Self.folderWithAPendingSave()
        let url = folder.file(".strata-save-log")
        let bytes = [UInt8](try Data(contentsOf: url))
        let record = Array(bytes[StripedSaveLog.headerSize...])
        var damaged = record
        damaged[0] = 0xFF
        damaged[1] = 0xFF
        let header = StripedSaveLog.header(
            lastNumber: 1, committedLength: StripedSaveLog.headerSize + 2 * record.count)
        try Data(header + damaged + record).write(to: url)
        let error = try #require(throws: StoreError.self) { try Stack(folder) }
        #expect(error.code == .corrupt)
        #expect(error.message.contains("record at byte \(StripedSaveLog.headerSize) gives a length"))
    }

    /// A folder whose log holds one decided save that the pad failed to write.
    static func folderWithAPendingSave() throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory()
        let stack = try Stack(folder, pad: { FailingPad($0) })
        try stack.context.performAndWait {
            _ = try stack.insert("Book", ["title": "Dune"])
            _ = try stack.insert("Note", ["text": "spice"])
            #expect(throws: StoreError.self) { try stack.context.save() }
        }
        return folder
    }

    @Test func theStepsOfAStripedSaveComeInOrder() throws {
        let folder = try TemporaryDirectory()
        let stack = try Stack(folder)
        let steps = Locked<[PersistentStoreCoordinator.StripedSaveStep]>([])
        stack.coordinator.probeStripedSaves { step in steps.withLock { $0.append(step) } }
        try stack.saveBook("Dune", note: "spice")
        #expect(
            steps.withLock { $0 } == [
                .checked, .prepared, .recordHalfWritten, .recordWritten, .recordFlushed, .headerWritten, .logged,
                .committed(0),
                .committed(1), .finished,
            ])
    }
}

extension StoreFetchResult {
    fileprivate var objectIDs: [ObjectID] {
        if case .objectIDs(let ids) = self { return ids }
        return []
    }
}
