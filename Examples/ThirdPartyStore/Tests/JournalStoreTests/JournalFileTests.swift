import Foundation
import JournalStore
import Strata
import Testing

/// What the journal's format promises beyond the conformance suite: a save cut short is
/// ignored, and a store does not write over a file another writer changed while it was closed.
@Suite struct JournalFileTests {
    let folder: URL
    let model: ManagedObjectModel

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("Journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        model = ManagedObjectModel {
            EntityDescription("Note") { AttributeDescription("text", .string) }
        }
    }

    private func saveNote(_ text: String, in coordinator: PersistentStoreCoordinator) throws {
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            try context.insertNewObject(forEntityName: "Note").setValue(.string(text), forKey: "text")
            try context.save()
        }
    }

    private func count(in coordinator: PersistentStoreCoordinator) throws -> Int {
        let context = ManagedObjectContext(coordinator: coordinator)
        return try context.performAndWait { try context.count(for: FetchRequest<ManagedObject>(entityName: "Note")) }
    }

    @Test func bytesPastTheCommittedLengthAreIgnoredAndOverwritten() throws {
        let url = folder.appendingPathComponent("torn.journal")
        do {
            let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.journal])
            let store = try coordinator.addStore(type: "Journal", at: url)
            try saveNote("kept", in: coordinator)
            try coordinator.remove(store)
        }
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"nextReference":9,"upserts":[{"id":"#.utf8))
        try handle.close()
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.journal])
        let store = try coordinator.addStore(type: "Journal", at: url)
        #expect(try count(in: coordinator) == 1)
        try saveNote("next", in: coordinator)
        try coordinator.remove(store)
        let reopened = try PersistentStoreCoordinator(model: model, storeTypes: [.journal])
        try reopened.addStore(type: "Journal", at: url)
        #expect(try count(in: reopened) == 2)
    }

    @Test func aStoreClosedWhileAnotherWriterSavedRefusesToWriteAgain() throws {
        let url = folder.appendingPathComponent("shared.journal")
        let first = try PersistentStoreCoordinator(model: model, storeTypes: [.journal])
        let store = try first.addStore(type: "Journal", at: url)
        try saveNote("first", in: first)
        try first.remove(store)
        do {
            let second = try PersistentStoreCoordinator(model: model, storeTypes: [.journal])
            let other = try second.addStore(type: "Journal", at: url)
            try saveNote("second", in: second)
            try second.remove(other)
        }
        let error = try #require(throws: StoreError.self) { try first.add(store) }
        #expect(error.code == .inUse && error.message.contains(url.path))
    }
}
