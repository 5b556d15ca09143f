import Foundation
import StrataTestSupport
import Testing

@_spi(FaultInjection) @testable import Strata

/// Saves across stores some of which keep no local file: the in-memory store holds its part
/// and takes it only once the others have theirs, two stores that keep their state without a
/// file for the log are refused before anything is written, and so is a store that saves in
/// one step (docs/STRIPED-SAVES.md).
@Suite struct StripedSaveWithoutFilesTests {
    typealias Stack = StripedSaveTests.Stack

    /// A store of `configuration` kept in memory.
    static func inMemory(_ configuration: String) throws -> any IncrementalStore {
        try InMemoryStore.open(model: Stack.model, configuration: configuration)
    }

    /// A coordinator of `stores`, with a context.
    static func coordinator(_ stores: [any IncrementalStore]) throws -> (
        PersistentStoreCoordinator, ManagedObjectContext
    ) {
        let coordinator = try PersistentStoreCoordinator(model: Stack.model, storeTypes: [.jsonFile()])
        for store in stores { try coordinator.add(store) }
        return (coordinator, ManagedObjectContext(coordinator: coordinator))
    }

    static func jsonStore(_ configuration: String, _ file: URL) throws -> any IncrementalStore {
        try StoreType.jsonFile().open(StoreOpenRequest(model: Stack.model, configurationName: configuration, url: file))
    }

    static func count(_ entity: String, in store: any IncrementalStore) throws -> Int {
        guard case .count(let count) = try store.execute(StoreFetchRequest(entityName: entity, resultType: .count))
        else { return -1 }
        return count
    }

    /// The part of a save inserting one object of `entity` into `store`.
    static func insertion(_ entity: String, into store: any IncrementalStore, _ values: [String: AttributeValue])
        throws -> StoreChangeSet
    {
        let objectID = try #require(try store.permanentIDs(forEntities: [entity]).first)
        return StoreChangeSet(inserted: [.init(objectID: objectID, values: values, expectedVersion: 0)])
    }

    @Test func anInMemoryStoreThatRefusesItsPartLeavesTheFileStoreUnwritten() throws {
        let folder = try TemporaryDirectory()
        let shelf = try Self.jsonStore("Shelf", folder.file("shelf.json"))
        let pad = try Self.inMemory("Pad")
        let (coordinator, _) = try Self.coordinator([shelf, pad])
        var note = try Self.insertion("Note", into: pad, ["text": "spice"])
        // A key the in-memory store keeps for itself: only the store's own save refuses it.
        note.userInfo = [AtomicStoreHistory.metadataKey: .string("not a history")]
        let error = try #require(throws: StoreError.self) {
            try coordinator.save([
                (shelf, try Self.insertion("Book", into: shelf, ["title": "Dune"])), (pad, note),
            ])
        }
        #expect(error.code == .invalidChange)
        #expect(try Self.count("Book", in: shelf) == 0)
        #expect(try Self.count("Note", in: pad) == 0)
        #expect(StripedSaveTests.logSize(folder) == nil)
    }

    @Test(arguments: [false, true])
    func aFileStoreThatFailsLeavesTheInMemoryStoreUnwritten(inMemoryFirst: Bool) throws {
        let folder = try TemporaryDirectory()
        let shelf = StripedSaveTests.FailingPad(try Self.jsonStore("Shelf", folder.file("shelf.json")))
        let pad = try Self.inMemory("Pad")
        let (_, context) = try Self.coordinator(inMemoryFirst ? [pad, shelf] : [shelf, pad])
        try context.performAndWait {
            for (entity, key) in [("Book", "title"), ("Note", "text")] {
                try context.insertNewObject(forEntityName: entity).setValue("Dune", forKey: key)
            }
            let error = try #require(throws: StoreError.self) { try context.save() }
            #expect(error.code == .io)
            #expect(context.hasChanges)
            // Nothing was written: the same save succeeds once the file store can write.
            try context.save()
        }
        #expect(try Self.count("Book", in: shelf) == 1)
        #expect(try Self.count("Note", in: pad) == 1)
    }

    @Test func aFailedLogLeavesTheInMemoryStoreAndTheOthersUnwritten() throws {
        let folder = try TemporaryDirectory()
        let stack = try Stack(folder)
        // A third configuration's store would do as well; a second coordinator keeps the
        // stack's model: the in-memory store holds the notes, the file stores books and notes.
        let memo = try InMemoryStore.open(model: Stack.model, configuration: "Pad")
        try stack.coordinator.add(memo)
        stack.coordinator.failSaveLogWrites(inFolder: folder.url, [.record])
        let error = try #require(throws: StoreError.self) {
            try stack.coordinator.save([
                (stack.shelf, try Self.insertion("Book", into: stack.shelf, ["title": "Dune"])),
                (stack.pad, try Self.insertion("Note", into: stack.pad, ["text": "spice"])),
                (memo, try Self.insertion("Note", into: memo, ["text": "sand"])),
            ])
        }
        #expect(error.code == .io)
        #expect(try Self.count("Book", in: stack.shelf) == 0)
        #expect(try Self.count("Note", in: stack.pad) == 0)
        #expect(try Self.count("Note", in: memo) == 0)
    }

    @Test func inMemoryStoresAndOneFileStoreSaveWithoutALog() throws {
        let folder = try TemporaryDirectory()
        let shelf = try Self.jsonStore("Shelf", folder.file("shelf.json"))
        let pad = try Self.inMemory("Pad")
        let (coordinator, context) = try Self.coordinator([shelf, pad])
        var steps: [PersistentStoreCoordinator.StripedSaveStep] = []
        let seen = Locked(steps)
        coordinator.probeStripedSaves { step in seen.withLock { $0.append(step) } }
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Book").setValue("Dune", forKey: "title")
            try context.insertNewObject(forEntityName: "Note").setValue("spice", forKey: "text")
            try context.save()
        }
        steps = seen.withLock { $0 }
        #expect(try Self.count("Book", in: shelf) == 1)
        #expect(try Self.count("Note", in: pad) == 1)
        #expect(StripedSaveTests.logSize(folder) == nil)
        // The file store decides the save; the in-memory store takes its part after it.
        let shelfIndex = steps.firstIndex { if case .committed = $0 { true } else { false } }
        #expect(steps.contains(.prepared) && !steps.contains(.logged))
        #expect(
            shelfIndex.map { steps[($0 + 1)...].contains { if case .committed = $0 { true } else { false } } } == true)
    }

    /// A store written to the one-phase contract: it implements ``IncrementalStore/save(_:)``
    /// and not ``IncrementalStore/save(_:committingAfter:)``.
    final class OneStepStore: HandsReadsToBase {
        let base: any IncrementalStore

        init(_ base: any IncrementalStore) { self.base = base }

        func save(_ changes: StoreChangeSet) throws { try base.save(changes) }
    }

    @Test func aStoreThatSavesInOneStepIsRefusedFromASaveAcrossStoresAndSavesAlone() throws {
        let folder = try TemporaryDirectory()
        let shelf = try Self.jsonStore("Shelf", folder.file("shelf.json"))
        let pad = OneStepStore(try Self.inMemory("Pad"))
        let (_, context) = try Self.coordinator([shelf, pad])
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Book").setValue("Dune", forKey: "title")
            let note = try context.insertNewObject(forEntityName: "Note")
            try note.setValue("spice", forKey: "text")
            let error = try #require(throws: StoreError.self) { try context.save() }
            #expect(error.code == .unsupported)
            #expect(error.message.contains("saves in one step") && error.message.contains("nothing was written"))
            #expect(try Self.count("Book", in: shelf) == 0)
            #expect(try Self.count("Note", in: pad) == 0)
            context.rollback()
            try context.insertNewObject(forEntityName: "Note").setValue("worms", forKey: "text")
            try context.save()
        }
        #expect(try Self.count("Note", in: pad) == 1)
        #expect(StripedSaveTests.logSize(folder) ?? 0 <= StripedSaveLog.headerSize)
    }

    @Test func twoStoresWithoutFilesThatKeepTheirStateAreRefusedBeforeAnythingIsWritten() throws {
        let shelf = ForwardingStore(try Self.inMemory("Shelf"))
        let pad = ForwardingStore(try Self.inMemory("Pad"))
        let (_, context) = try Self.coordinator([shelf, pad])
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Book").setValue("Dune", forKey: "title")
            try context.insertNewObject(forEntityName: "Note").setValue("spice", forKey: "text")
            let error = try #require(throws: StoreError.self) { try context.save() }
            #expect(error.code == .unsupported)
            #expect(error.message.contains("none of them keeps a local file"))
        }
        #expect(try Self.count("Book", in: shelf) == 0)
        #expect(try Self.count("Note", in: pad) == 0)
    }

    @Test func twoInMemoryStoresSaveTogether() throws {
        let shelf = try Self.inMemory("Shelf")
        let pad = try Self.inMemory("Pad")
        let (_, context) = try Self.coordinator([shelf, pad])
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Book").setValue("Dune", forKey: "title")
            try context.insertNewObject(forEntityName: "Note").setValue("spice", forKey: "text")
            try context.save()
        }
        #expect(try Self.count("Book", in: shelf) == 1)
        #expect(try Self.count("Note", in: pad) == 1)
    }

    @Test func aStoreWithoutAFileThatKeepsItsStateJoinsTheLogOfAFileStore() throws {
        let folder = try TemporaryDirectory()
        let shelf = try Self.jsonStore("Shelf", folder.file("shelf.json"))
        let pad = ForwardingStore(try Self.inMemory("Pad"))
        let (coordinator, context) = try Self.coordinator([shelf, pad])
        coordinator.failSaveLogWrites(inFolder: folder.url, [.record])
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Book").setValue("Dune", forKey: "title")
            try context.insertNewObject(forEntityName: "Note").setValue("spice", forKey: "text")
            let error = try #require(throws: StoreError.self) { try context.save() }
            #expect(error.code == .io)
            #expect(try Self.count("Book", in: shelf) == 0)
            #expect(try Self.count("Note", in: pad) == 0)
            coordinator.failSaveLogWrites(inFolder: folder.url, [])
            try context.save()
        }
        #expect(try Self.count("Book", in: shelf) == 1)
        #expect(try Self.count("Note", in: pad) == 1)
        #expect(pad.metadata.userInfo[PersistentStoreCoordinator.stripedSaveKey] == .integer64(1))
    }
}
