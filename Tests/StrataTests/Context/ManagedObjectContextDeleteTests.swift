import Foundation
import Testing

@testable import Strata

/// Deleting objects that were never saved: delete rules apply and nothing reaches a store.
@Suite struct ManagedObjectContextDeleteTests {
    private func count(_ entity: String, in stack: CatalogStack) throws -> StoreFetchResult {
        try stack.store.execute(StoreFetchRequest(entityName: entity, resultType: .count))
    }

    @Test func aNewObjectDeletedBeforeSavingIsNeverWritten() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            try stack.context.delete(book)
            #expect(!book.isInserted && book.isDeleted)
            #expect(stack.context.insertedObjects.isEmpty)
            #expect(try book.objects(forKey: "tags").isEmpty)
            try stack.context.save()
            #expect(!stack.context.hasChanges)
            #expect(book.managedObjectContext == nil)
            #expect(try count("Book", in: stack) == .count(0))
        }
    }

    @Test func deleteRulesApplyToNewObjects() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"])
            let book = try stack.insert("Book", ["title": "Dune"])
            let cover = try stack.insert("Cover", ["color": "red"])
            let tag = try stack.insert("Tag", ["label": "classic"])
            try book.setObject(ada, forKey: "author")
            try book.setObject(cover, forKey: "cover")
            try tag.addObject(book, forKey: "books")
            try stack.context.delete(book)
            #expect(cover.isDeleted)
            #expect(try ada.objects(forKey: "books").isEmpty)
            #expect(try tag.objects(forKey: "books").isEmpty)
            try stack.context.save()
            #expect(try count("Book", in: stack) == .count(0))
            #expect(try count("Cover", in: stack) == .count(0))
            #expect(try stack.store.relatedObjectIDs(of: tag.objectID, relationship: "books").isEmpty)
            #expect(try stack.store.relatedObjectIDs(of: ada.objectID, relationship: "books").isEmpty)
        }
    }
}
