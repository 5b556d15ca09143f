import Foundation
import Testing

@testable import Strata

/// A save to two stores that one store's conflict refuses, then succeeds when retried.
@Suite struct ContextSaveRetryTests {
    @Test func newObjectsOfBothStoresKeepTheirLinkAfterTheRetry() throws {
        let model = ManagedObjectModel {
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                RelationshipDescription.toOne("draft", destination: "Note").transient()
            }
            EntityDescription("Note") { AttributeDescription("text", .string) }
            ConfigurationDescription("Shelf", entities: ["Book"])
            ConfigurationDescription("Pad", entities: ["Note"])
        }
        let coordinator = try PersistentStoreCoordinator(model: model)
        try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Shelf")
        try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Pad")
        let context = ManagedObjectContext(coordinator: coordinator)
        let other = ManagedObjectContext(coordinator: coordinator)
        let savedNote = try context.performAndWait {
            let note = try context.insertNewObject(forEntityName: "Note")
            try context.save()
            return note.objectID
        }
        try other.performAndWait {
            try other.object(with: savedNote).setValue("elsewhere", forKey: "text")
            try other.save()
        }
        try context.performAndWait {
            try context.object(with: savedNote).setValue("here", forKey: "text")
            let book = try context.insertNewObject(forEntityName: "Book")
            let draft = try context.insertNewObject(forEntityName: "Note")
            try book.setObject(draft, forKey: "draft")
            let error = try #require(throws: ContextError.self) { try context.save() }
            #expect(error.code == .mergeConflict)
            #expect(book.objectID.isTemporary && draft.objectID.isTemporary, "no store was written")
            #expect(try book.object(forKey: "draft") === draft)
            context.mergePolicy = .mergeByPropertyObjectTrump
            try context.save()
            #expect(!draft.objectID.isTemporary)
            #expect(try book.value(forKey: "draft") == .objectID(draft.objectID))
            #expect(try book.object(forKey: "draft") === draft)
        }
    }
}
