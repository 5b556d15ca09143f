import Foundation
import Testing

@testable import Strata

/// A context with `automaticallyMergesChangesFromParent` applies its siblings' saves on its own
/// queue without being asked; one without it keeps what it read.
@Suite struct ManagedObjectContextAutomaticMergeTests {
    let coordinator: PersistentStoreCoordinator
    let id: ObjectID

    init() throws {
        let model = ManagedObjectModel {
            EntityDescription("Note") {
                AttributeDescription("text", .string)
                AttributeDescription("stars", .integer16)
            }
        }
        coordinator = try PersistentStoreCoordinator(model: model)
        try coordinator.addStore(type: StoreType.inMemory.name)
        let seed = ManagedObjectContext(coordinator: coordinator)
        id = try seed.performAndWait {
            let note = try seed.insertNewObject(forEntityName: "Note")
            try note.setValue("first", forKey: "text")
            try seed.save()
            return note.objectID
        }
    }

    /// A context that has read the note, merging saves automatically or not.
    func reader(merging: Bool) throws -> ManagedObjectContext {
        let context = ManagedObjectContext(coordinator: coordinator, name: merging ? "merging" : "still")
        let text = try context.performAndWait {
            context.automaticallyMergesChangesFromParent = merging
            return try context.existingObject(with: id).value(forKey: "text")
        }
        #expect(text == "first")
        return context
    }

    /// Saves `change` in a context of its own.
    func save(_ change: (ManagedObjectContext) throws -> Void) throws {
        let writer = ManagedObjectContext(coordinator: coordinator, name: "writer")
        try writer.performAndWait {
            try change(writer)
            try writer.save()
        }
    }

    @Test func aSiblingsUpdateIsMergedAndAnnounced() async throws {
        let merging = try reader(merging: true)
        let still = try reader(merging: false)
        let refreshed = Locked<Set<ObjectID>>([])
        merging.performAndWait {
            _ = merging.addObserver(for: .objectsDidChange) { changes in
                refreshed.withLock { $0.formUnion(changes.notification.refreshedObjectIDs) }
            }
        }
        try save { try $0.existingObject(with: id).setValue("second", forKey: "text") }

        let text = try await merging.perform { try merging.existingObject(with: id).value(forKey: "text") }
        #expect(text == "second")
        #expect(refreshed.withLock { $0 } == [id])
        let kept = try await still.perform { try still.existingObject(with: id).value(forKey: "text") }
        #expect(kept == "first")
    }

    @Test func localChangesStayOnTopOfAMergedSave() async throws {
        let merging = try reader(merging: true)
        try merging.performAndWait { try merging.existingObject(with: id).setValue(.integer16(5), forKey: "stars") }
        try save { try $0.existingObject(with: id).setValue("second", forKey: "text") }
        let (text, stars, changed) = try await merging.perform {
            let note = try merging.existingObject(with: id)
            return (try note.value(forKey: "text"), try note.value(forKey: "stars"), merging.hasChanges)
        }
        #expect(text == "second")
        #expect(stars == .integer16(5))
        #expect(changed)
    }

    @Test func aSiblingsDeletionRemovesTheObject() async throws {
        let merging = try reader(merging: true)
        try save { try $0.delete($0.existingObject(with: id)) }
        let registered = await merging.perform { merging.registeredObject(for: id) != nil }
        #expect(!registered)
    }

    @Test func turningItOffStopsMerging() async throws {
        let merging = try reader(merging: true)
        merging.performAndWait { merging.automaticallyMergesChangesFromParent = false }
        try save { try $0.existingObject(with: id).setValue("second", forKey: "text") }
        let text = try await merging.perform { try merging.existingObject(with: id).value(forKey: "text") }
        #expect(text == "first")
    }
}
