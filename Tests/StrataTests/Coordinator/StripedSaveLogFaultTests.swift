import Foundation
import StrataTestSupport
import Testing

@_spi(FaultInjection) @testable import Strata

/// What a save across stores leaves when writing its log fails: the save decided nowhere and
/// no store written, or, when the log cannot be put back as it was, `savePending` and a save
/// that is whole or absent in every store; never a save half written.
@Suite struct StripedSaveLogFaultTests {
    typealias Stack = StripedSaveTests.Stack

    /// The books and notes the stores of `folder` hold, read by a new coordinator.
    static func counts(shelf: URL, pad: URL) throws -> (books: Int, notes: Int) {
        let coordinator = try PersistentStoreCoordinator(model: Stack.model, storeTypes: [.jsonFile()])
        let books = try coordinator.addStore(type: StoreType.jsonFile().name, configuration: "Shelf", at: shelf)
        let notes = try coordinator.addStore(type: StoreType.jsonFile().name, configuration: "Pad", at: pad)
        func count(_ entity: String, _ store: any IncrementalStore) throws -> Int {
            guard case .count(let count) = try store.execute(StoreFetchRequest(entityName: entity, resultType: .count))
            else { return -1 }
            return count
        }
        return (try count("Book", books), try count("Note", notes))
    }

    @Test(arguments: [PersistentStoreCoordinator.SaveLogWrite.record, .header])
    func aFailedAppendDecidesNothing(_ write: PersistentStoreCoordinator.SaveLogWrite) throws {
        let folder = try TemporaryDirectory()
        do {
            let stack = try Stack(folder)
            try stack.saveBook("Dune", note: "spice")
            stack.coordinator.failSaveLogWrites(inFolder: folder.url, [write])
            defer { stack.coordinator.failSaveLogWrites(inFolder: folder.url, []) }
            let error = try #require(throws: StoreError.self) { try stack.saveBook("Emma", note: "Highbury") }
            #expect(error.code == .io, "\(error)")
            #expect(try stack.count("Book", in: stack.shelf) == 1 && stack.count("Note", in: stack.pad) == 1)
        }
        let counts = try Self.counts(shelf: folder.file("shelf.json"), pad: folder.file("pad.json"))
        #expect(counts == (1, 1), "the failed save is not completed from the log")
        let stack = try Stack(folder)
        try stack.saveBook("Emma", note: "Highbury")
        #expect(try stack.count("Book", in: stack.shelf) == 2 && stack.count("Note", in: stack.pad) == 2)
    }

    @Test func aHeaderThatCannotBeWrittenBackIsASavePendingNeverHalfASave() throws {
        let folder = try TemporaryDirectory()
        do {
            let stack = try Stack(folder)
            stack.coordinator.failSaveLogWrites(inFolder: folder.url, [.header, .headerWrittenBack])
            defer { stack.coordinator.failSaveLogWrites(inFolder: folder.url, []) }
            let error = try #require(throws: StoreError.self) { try stack.saveBook("Dune", note: "spice") }
            #expect(error.code == .savePending, "\(error)")
            #expect(error.message.contains(".strata-save-log"))
        }
        let counts = try Self.counts(shelf: folder.file("shelf.json"), pad: folder.file("pad.json"))
        #expect(counts.books == counts.notes, "a save across stores is whole or absent: \(counts)")
    }

    /// Stores in two folders, each with its log: when the second log cannot decide the save,
    /// the first takes it back, so that no store is written and no log completes it later.
    @Test func aLogThatCannotDecideMakesTheOthersTakeTheSaveBack() throws {
        let root = try TemporaryDirectory()
        let first = root.file("a")
        let second = root.file("b")
        for folder in [first, second] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let shelf = first.appendingPathComponent("shelf.json")
        let pad = second.appendingPathComponent("pad.json")
        do {
            let coordinator = try PersistentStoreCoordinator(model: Stack.model, storeTypes: [.jsonFile()])
            try coordinator.addStore(type: StoreType.jsonFile().name, configuration: "Shelf", at: shelf)
            try coordinator.addStore(type: StoreType.jsonFile().name, configuration: "Pad", at: pad)
            let context = ManagedObjectContext(coordinator: coordinator)
            func save(_ title: String) throws {
                try context.performAndWait {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.setValue(.string(title), forKey: "title")
                    let note = try context.insertNewObject(forEntityName: "Note")
                    try note.setValue(.string(title), forKey: "text")
                    try context.save()
                }
            }
            try save("Dune")
            coordinator.failSaveLogWrites(inFolder: second, [.record])
            defer { coordinator.failSaveLogWrites(inFolder: second, []) }
            let error = try #require(throws: StoreError.self) { try save("Emma") }
            #expect(error.code == .io, "\(error)")
            context.performAndWait { context.rollback() }
            coordinator.failSaveLogWrites(inFolder: second, [])
            try save("Emma")
            coordinator.failSaveLogWrites(inFolder: second, [.record])
            coordinator.failSaveLogWrites(inFolder: first, [.headerWrittenBack])
            defer { coordinator.failSaveLogWrites(inFolder: first, []) }
            let pending = try #require(throws: StoreError.self) { try save("Persuasion") }
            #expect(pending.code == .savePending, "\(pending)")
        }
        StripedSaveLog.failingWrites.withLock { $0 = $0.filter { !$0.key.hasPrefix(root.url.path) } }
        let counts = try Self.counts(shelf: shelf, pad: pad)
        #expect(counts.books == counts.notes, "a save across stores is whole or absent: \(counts)")
        #expect(counts.books == 3, "the save the first log kept decided is completed from it")
    }

    /// A logged save the pad can no longer take (another writer saved an object with the ID its
    /// part inserts) keeps the pad from being added, naming the way out; dropping the pad's part
    /// with `discardPendingSaves(ofStoreAt:type:)` lets it be added, and saves go on.
    @Test func aSaveAStoreCanNoLongerTakeHasATypedWayOut() throws {
        let folder = try TemporaryDirectory()
        var noteID: ObjectID?
        do {
            let stack = try Stack(folder, pad: { StripedSaveTests.FailingPad($0) })
            try stack.context.performAndWait {
                _ = try stack.insert("Book", ["title": "Dune"])
                let note = try stack.insert("Note", ["text": "spice"])
                #expect(throws: StoreError.self) { try stack.context.save() }
                noteID = note.objectID
            }
        }
        let padURL = folder.file("pad.json")
        do {
            let pad = try StoreType.jsonFile().open(
                StoreOpenRequest(model: Stack.model, configurationName: "Pad", url: padURL))
            try pad.save(
                StoreChangeSet(inserted: [
                    .init(
                        objectID: try #require(noteID), values: ["text": .string("written elsewhere")],
                        expectedVersion: 0)
                ]))
        }
        let refused = try #require(throws: StoreError.self) { try Stack(folder) }
        #expect(refused.message.contains("discardPendingSaves"), "\(refused)")
        let coordinator = try PersistentStoreCoordinator(model: Stack.model, storeTypes: [.jsonFile()])
        #expect(try coordinator.discardPendingSaves(ofStoreAt: padURL, type: StoreType.jsonFile().name) == [1])
        let stack = try Stack(folder)
        #expect(try stack.count("Book", in: stack.shelf) == 1 && stack.count("Note", in: stack.pad) == 1)
        try stack.saveBook("Emma", note: "Highbury")
        #expect(try stack.count("Book", in: stack.shelf) == 2 && stack.count("Note", in: stack.pad) == 2)
        #expect(StripedSaveTests.logSize(folder) == StripedSaveLog.headerSize)
    }
}
