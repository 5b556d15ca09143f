import Foundation
import Testing

@testable import Strata

/// Looking objects up by ID, object(with:), existingObject(with:), registeredObject(for:), and uniquing.
@Suite struct ManagedObjectContextObjectsTests {
    /// Authors and books in one in-memory store, with one saved author and book to look up.
    struct Stack {
        let coordinator: PersistentStoreCoordinator
        let store: any IncrementalStore
        let author: ObjectID
        let book: ObjectID

        init() throws {
            let model = ManagedObjectModel {
                EntityDescription("Author") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany("books", destination: "Book", inverse: "author")
                }
                EntityDescription("Book") {
                    AttributeDescription("title", .string)
                    RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
                }
            }
            let coordinator = try PersistentStoreCoordinator(model: model)
            store = try coordinator.addStore(type: StoreType.inMemory.name)
            let seeder = ManagedObjectContext(coordinator: coordinator)
            (author, book) = try seeder.performAndWait {
                let author = try seeder.insertNewObject(forEntityName: "Author")
                try author.setValue("Herbert", forKey: "name")
                let book = try seeder.insertNewObject(forEntityName: "Book")
                try book.setValue("Dune", forKey: "title")
                try book.setObject(author, forKey: "author")
                try seeder.save()
                return (author.objectID, book.objectID)
            }
            self.coordinator = coordinator
        }

        func context() -> ManagedObjectContext { ManagedObjectContext(coordinator: coordinator) }

        /// An ID the store never handed out.
        var missing: ObjectID {
            ObjectID(storeIdentifier: store.identifier, entityName: "Book", reference: .integer(9_999))
        }
    }

    private func expectObjectNotFound(_ id: ObjectID, in context: ManagedObjectContext) {
        let error = #expect(throws: ContextError.self) { try context.existingObject(with: id) }
        #expect(error?.code == .objectNotFound)
        #expect(error?.message.contains(id.uriString) == true)
    }

    @Test func objectWithGivesAFaultWithoutCheckingTheStore() throws {
        let stack = try Stack()
        let context = stack.context()
        try context.performAndWait {
            let book = context.object(with: stack.book)
            #expect(book.isFault)
            #expect(book.objectID == stack.book)
            #expect(book.managedObjectContext === context)
            #expect(context.registeredObject(for: stack.book) === book)
            #expect(context.object(with: stack.book) === book)
            let title = try book.value(forKey: "title")
            #expect(title == "Dune")
            #expect(!book.isFault)

            let ghost = context.object(with: stack.missing)
            #expect(ghost.isFault)
            #expect(!ghost.isDeleted)
            let nothing = try ghost.value(forKey: "title")
            #expect(nothing == .null)
            #expect(ghost.isDeleted)
        }
    }

    @Test func firingAFaultForAMissingRecordThrowsWhenInaccessibleFaultsAreNotDeleted() throws {
        let stack = try Stack()
        let context = stack.context()
        context.performAndWait {
            context.shouldDeleteInaccessibleFaults = false
            let ghost = context.object(with: stack.missing)
            let error = #expect(throws: ContextError.self) { try ghost.value(forKey: "title") }
            #expect(error?.code == .inaccessibleFault)
            #expect(error?.message.contains(stack.missing.uriString) == true)
        }
    }

    @Test func existingObjectReturnsTheRegisteredObject() throws {
        let stack = try Stack()
        let context = stack.context()
        try context.performAndWait {
            let draft = try context.insertNewObject(forEntityName: "Book")
            #expect(try context.existingObject(with: draft.objectID) === draft)

            let fetched = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Author")).first)
            _ = try fetched.value(forKey: "name")
            #expect(try context.existingObject(with: stack.author) === fetched)

            let fault = context.object(with: stack.book)
            #expect(fault.isFault)
            #expect(try context.existingObject(with: stack.book) === fault)
            #expect(!fault.isFault)
        }
    }

    @Test func existingObjectLoadsAnUnregisteredObjectFromItsStore() throws {
        let stack = try Stack()
        let context = stack.context()
        try context.performAndWait {
            #expect(context.registeredObject(for: stack.book) == nil)
            let book = try context.existingObject(with: stack.book)
            #expect(!book.isFault)
            #expect(book.committedValues() == ["title": "Dune", "author": .objectID(stack.author)])
            #expect(context.registeredObject(for: stack.book) === book)
            #expect(try book.object(forKey: "author")?.objectID == stack.author)
        }
    }

    @Test func existingObjectThrowsObjectNotFoundForAnIDNoStoreHas() throws {
        let stack = try Stack()
        let context = stack.context()
        try context.performAndWait {
            expectObjectNotFound(stack.missing, in: context)
            expectObjectNotFound(.temporary(entityName: "Book"), in: context)
            expectObjectNotFound(
                ObjectID(storeIdentifier: UUID().uuidString, entityName: "Book", reference: .integer(1)), in: context)
            expectObjectNotFound(
                ObjectID(storeIdentifier: stack.store.identifier, entityName: "Nope", reference: .integer(1)),
                in: context)

            let book = try context.existingObject(with: stack.book)
            try context.delete(book)
            try context.save()
            expectObjectNotFound(stack.book, in: context)
        }
    }

    @Test func existingObjectThrowsForAFaultWhoseRecordWasDeletedElsewhere() throws {
        let stack = try Stack()
        let (reader, writer) = (stack.context(), stack.context())
        let fault = reader.performAndWait { reader.object(with: stack.book) }
        try writer.performAndWait {
            try writer.delete(try writer.existingObject(with: stack.book))
            try writer.save()
        }
        reader.performAndWait {
            expectObjectNotFound(stack.book, in: reader)
            #expect(fault.isFault)
        }
    }

    @Test func fetchingTheSameRecordTwiceGivesTheSameInstance() throws {
        let stack = try Stack()
        let context = stack.context()
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            let first = try #require(try context.fetch(request).first)
            let second = try #require(try context.fetch(request).first)
            #expect(first === second)
            var loaded = request
            loaded.returnsObjectsAsFaults = false
            #expect(try context.fetch(loaded).first === first)
            #expect(context.object(with: stack.book) === first)
            #expect(try context.existingObject(with: stack.book) === first)

            let author = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Author")).first)
            #expect(try first.object(forKey: "author") === author)
            #expect(try author.objects(forKey: "books").first === first)
            #expect(context.registeredObjects.count == 2)
        }
        let other = stack.context()
        let elsewhere = try other.performAndWait {
            try #require(try other.fetch(FetchRequest<ManagedObject>(entityName: "Book")).first)
        }
        let here = context.performAndWait { context.registeredObject(for: stack.book) }
        #expect(elsewhere !== here)
        #expect(elsewhere.objectID == here?.objectID)
    }

    @Test func aSavedNewObjectIsTheInstanceFetchesReturn() throws {
        let stack = try Stack()
        let context = stack.context()
        try context.performAndWait {
            let emma = try context.insertNewObject(forEntityName: "Book")
            try emma.setValue("Emma", forKey: "title")
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = try FetchPredicate(format: "title == 'Emma'")
            #expect(try context.fetch(request).first === emma)
            try context.save()
            #expect(try context.fetch(request).first === emma)
            #expect(context.object(with: emma.objectID) === emma)
            #expect(try context.existingObject(with: emma.objectID) === emma)
        }
    }
}
