import Foundation
import Testing

@testable import Strata

/// Undoing unsaved work: rollback(), reset(), refresh(_:mergeChanges:) and refreshAllObjects().
@Suite struct ManagedObjectContextRollbackTests {
    /// Authors, their books and the books' reviews (deleted with their book) in one in-memory store.
    struct Stack {
        let coordinator: PersistentStoreCoordinator
        let store: any IncrementalStore
        let context: ManagedObjectContext

        init() throws {
            let model = ManagedObjectModel {
                EntityDescription("Author") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany("books", destination: "Book", inverse: "author")
                }
                EntityDescription("Book") {
                    AttributeDescription("title", .string)
                    AttributeDescription("pages", .integer32)
                    RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
                    RelationshipDescription.toMany(
                        "reviews", destination: "Review", inverse: "book", deleteRule: .cascade)
                }
                EntityDescription("Review") {
                    AttributeDescription("text", .string)
                    RelationshipDescription.toOne("book", destination: "Book", inverse: "reviews")
                }
            }
            coordinator = try PersistentStoreCoordinator(model: model)
            store = try coordinator.addStore(type: StoreType.inMemory.name)
            context = ManagedObjectContext(coordinator: coordinator)
        }

        @discardableResult
        func insert(_ entity: String, _ values: [String: AttributeValue] = [:]) throws -> ManagedObject {
            let object = try context.insertNewObject(forEntityName: entity)
            for (key, value) in values { try object.setValue(value, forKey: key) }
            return object
        }

        /// Sets `key` of the object `id` to `value` in another context and saves it there.
        func saveElsewhere(_ value: AttributeValue, forKey key: String, of id: ObjectID) throws {
            let writer = ManagedObjectContext(coordinator: coordinator, name: "writer")
            try writer.performAndWait {
                try writer.existingObject(with: id).setValue(value, forKey: key)
                try writer.save()
            }
        }

        func deleteElsewhere(_ id: ObjectID) throws {
            let writer = ManagedObjectContext(coordinator: coordinator, name: "writer")
            try writer.performAndWait {
                try writer.delete(try writer.existingObject(with: id))
                try writer.save()
            }
        }

        func titles() throws -> [String] {
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.sortDescriptors = [FetchSortDescriptor("title")]
            return try context.fetch(request).map { try $0.value(forKey: "title").get(String.self) ?? "-" }
        }
    }

    @Test func rollbackDiscardsInsertedObjects() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            try stack.insert("Book", ["title": "Saved"])
            try stack.context.save()
            let draft = try stack.insert("Book", ["title": "Draft"])
            let id = draft.objectID

            stack.context.rollback()
            #expect(!stack.context.hasChanges)
            #expect(stack.context.insertedObjects.isEmpty)
            #expect(draft.managedObjectContext == nil)
            #expect(stack.context.registeredObject(for: id) == nil)
            #expect(try stack.titles() == ["Saved"])
            try stack.context.save()
            #expect(try stack.store.execute(StoreFetchRequest(entityName: "Book", resultType: .count)) == .count(1))
        }
    }

    @Test func rollbackRestoresTheCommittedValues() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune", "pages": .integer32(412)])
            try stack.context.save()
            try book.setValue("Dune, revised", forKey: "title")
            try book.setValue(.integer32(500), forKey: "pages")
            #expect(book.isUpdated)

            stack.context.rollback()
            #expect(try book.value(forKey: "title") == "Dune")
            #expect(try book.value(forKey: "pages") == .integer32(412))
            #expect(!book.isUpdated && !book.hasChanges)
            #expect(book.changedValues().isEmpty)
            #expect(!stack.context.hasChanges)
            #expect(book.managedObjectContext === stack.context)
            try stack.context.save()
            #expect(try stack.store.snapshot(for: book.objectID)?.version == 1)
        }
    }

    @Test func rollbackBringsBackDeletedObjectsAndTheirRelationships() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let author = try stack.insert("Author", ["name": "Herbert"])
            let dune = try stack.insert("Book", ["title": "Dune"])
            let messiah = try stack.insert("Book", ["title": "Messiah"])
            let review = try stack.insert("Review", ["text": "Spice!"])
            try dune.setObject(author, forKey: "author")
            try messiah.setObject(author, forKey: "author")
            try review.setObject(dune, forKey: "book")
            try stack.context.save()

            try stack.context.delete(author)
            try stack.context.delete(dune)
            #expect(review.isDeleted)
            #expect(try messiah.object(forKey: "author") == nil)
            #expect(try stack.titles() == ["Messiah"])

            stack.context.rollback()
            #expect(![author, dune, review].contains { $0.isDeleted })
            #expect(try dune.object(forKey: "author") === author)
            #expect(try messiah.object(forKey: "author") === author)
            #expect(Set(try author.objects(forKey: "books")) == [dune, messiah])
            #expect(try dune.objects(forKey: "reviews") == [review])
            #expect(try review.object(forKey: "book") === dune)
            #expect(try stack.titles() == ["Dune", "Messiah"])
            #expect(!stack.context.hasChanges)
            try stack.context.save()
            #expect(try stack.store.snapshot(for: messiah.objectID)?.version == 1)
            #expect(try stack.store.snapshot(for: review.objectID) != nil)
        }
    }

    @Test func rollbackRestoresChangedRelationships() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let herbert = try stack.insert("Author", ["name": "Herbert"])
            let austen = try stack.insert("Author", ["name": "Austen"])
            let dune = try stack.insert("Book", ["title": "Dune"])
            try dune.setObject(herbert, forKey: "author")
            try stack.context.save()

            try dune.setObject(austen, forKey: "author")
            let emma = try stack.insert("Book", ["title": "Emma"])
            try austen.addObject(emma, forKey: "books")
            #expect(Set(try austen.objects(forKey: "books")) == [dune, emma])
            #expect(try herbert.objects(forKey: "books").isEmpty)

            stack.context.rollback()
            #expect(try dune.object(forKey: "author") === herbert)
            #expect(try herbert.objects(forKey: "books") == [dune])
            #expect(try austen.objects(forKey: "books").isEmpty)
            #expect(emma.managedObjectContext == nil)
            #expect(!stack.context.hasChanges)
        }
    }

    @Test func resetForgetsEveryObject() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            try stack.context.save()
            try book.setValue("Unsaved", forKey: "title")
            let draft = try stack.insert("Book", ["title": "Draft"])

            stack.context.reset()
            #expect(stack.context.registeredObjects.isEmpty)
            #expect(!stack.context.hasChanges)
            #expect(book.managedObjectContext == nil)
            #expect(draft.managedObjectContext == nil)
            #expect(stack.context.registeredObject(for: book.objectID) == nil)

            let fetched = try stack.context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
            #expect(fetched.count == 1)
            let again = try #require(fetched.first)
            #expect(again !== book)
            #expect(again.objectID == book.objectID)
            #expect(again.managedObjectContext === stack.context)
            #expect(try again.value(forKey: "title") == "Dune")
            #expect(stack.context.registeredObjects == [again])
        }
    }

    @Test func refreshMergingChangesKeepsLocalChangesOverTheStoresNewValues() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune", "pages": .integer32(412)])
            try stack.context.save()
            try book.setValue("Dune (here)", forKey: "title")
            try stack.saveElsewhere("Dune (there)", forKey: "title", of: book.objectID)
            try stack.saveElsewhere(.integer32(600), forKey: "pages", of: book.objectID)

            try stack.context.refresh(book, mergeChanges: true)
            #expect(try book.value(forKey: "title") == "Dune (here)")
            #expect(try book.value(forKey: "pages") == .integer32(600))
            #expect(book.committedValues(forKeys: ["title"]) == ["title": "Dune (there)"])
            #expect(book.changedValues() == ["title": "Dune (here)"])
            #expect(book.isUpdated)

            try stack.context.save()
            let stored = try #require(try stack.store.snapshot(for: book.objectID))
            #expect(stored.values["title"] == "Dune (here)")
            #expect(stored.values["pages"] == .integer32(600))
            #expect(stored.version == 4)
        }
    }

    @Test func refreshWithoutMergingDiscardsLocalChanges() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune", "pages": .integer32(412)])
            try stack.context.save()
            try book.setValue("Dune (here)", forKey: "title")
            try stack.saveElsewhere(.integer32(600), forKey: "pages", of: book.objectID)

            try stack.context.refresh(book, mergeChanges: false)
            #expect(book.isFault)
            #expect(!book.hasChanges)
            #expect(!stack.context.hasChanges)
            #expect(try book.value(forKey: "title") == "Dune")
            #expect(try book.value(forKey: "pages") == .integer32(600))
            #expect(!book.isFault)
            try stack.context.save()
            #expect(try stack.store.snapshot(for: book.objectID)?.version == 2)

            try book.setValue("Dune (again)", forKey: "title")
            try stack.context.save()
            #expect(try stack.store.snapshot(for: book.objectID)?.version == 3)
        }
    }

    @Test func refreshLeavesANewObjectAlone() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let draft = try stack.insert("Book", ["title": "Draft"])
            try stack.context.refresh(draft, mergeChanges: false)
            #expect(draft.isInserted)
            #expect(!draft.isFault)
            #expect(try draft.value(forKey: "title") == "Draft")
        }
    }

    @Test func refreshingAnObjectDeletedElsewhereMarksItDeleted() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            try stack.context.save()
            try book.setValue("Dune (here)", forKey: "title")
            try stack.deleteElsewhere(book.objectID)

            try stack.context.refresh(book, mergeChanges: true)
            #expect(book.isDeleted)
            #expect(!book.isUpdated)
            #expect(try book.value(forKey: "title") == .null)
        }
    }

    @Test func refreshAllObjectsRefaultsUnchangedObjectsAndKeepsChangedOnes() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let dune = try stack.insert("Book", ["title": "Dune"])
            let emma = try stack.insert("Book", ["title": "Emma"])
            try stack.context.save()
            try emma.setValue("Emma (here)", forKey: "title")
            try stack.saveElsewhere("Dune (there)", forKey: "title", of: dune.objectID)

            try stack.context.refreshAllObjects()
            #expect(dune.isFault)
            #expect(!emma.isFault)
            #expect(try dune.value(forKey: "title") == "Dune (there)")
            #expect(try emma.value(forKey: "title") == "Emma (here)")
            #expect(stack.context.updatedObjects == [emma])
        }
    }
}
