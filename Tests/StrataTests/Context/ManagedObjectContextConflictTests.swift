import Foundation
import Testing

@testable import Strata

/// Optimistic locking: a save that meets a newer version in its store fails with the conflicting objects.
@Suite struct ManagedObjectContextConflictTests {
    /// The IDs of the objects every test starts from.
    struct Seed {
        var author: ObjectID
        var book: ObjectID
        var other: ObjectID
    }

    /// Authors and books in configuration "Shelf", notes in "Pad"; one in-memory store each.
    struct Stack {
        let coordinator: PersistentStoreCoordinator
        let shelf: any IncrementalStore
        let pad: any IncrementalStore

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
                }
                EntityDescription("Note") { AttributeDescription("text", .string) }
                ConfigurationDescription("Shelf", entities: ["Author", "Book"])
                ConfigurationDescription("Pad", entities: ["Note"])
            }
            coordinator = try PersistentStoreCoordinator(model: model)
            shelf = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Shelf")
            pad = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Pad")
        }

        /// Saves an author with the book "Dune", and the book "Emma" with no author.
        func seed() throws -> Seed {
            let context = ManagedObjectContext(coordinator: coordinator, name: "seed")
            return try context.performAndWait {
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue("Herbert", forKey: "name")
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue("Dune", forKey: "title")
                try book.setValue(.integer32(412), forKey: "pages")
                try book.setObject(author, forKey: "author")
                let other = try context.insertNewObject(forEntityName: "Book")
                try other.setValue("Emma", forKey: "title")
                try context.save()
                return Seed(author: author.objectID, book: book.objectID, other: other.objectID)
            }
        }

        func context(_ name: String) -> ManagedObjectContext {
            ManagedObjectContext(coordinator: coordinator, name: name)
        }

        /// Changes `key` of the object `id` to `value` in a context of its own and saves.
        func save(_ value: AttributeValue, forKey key: String, of id: ObjectID) throws {
            let context = self.context("other writer")
            try context.performAndWait {
                try context.existingObject(with: id).setValue(value, forKey: key)
                try context.save()
            }
        }

        func snapshot(_ id: ObjectID) throws -> Snapshot? {
            try coordinator.store(for: id).snapshot(for: id)
        }

        func count(_ entity: String, in store: any IncrementalStore) throws -> Int {
            guard case .count(let count) = try store.execute(StoreFetchRequest(entityName: entity, resultType: .count))
            else { return -1 }
            return count
        }
    }

    private func conflict(_ context: ManagedObjectContext) throws -> ContextError {
        let error = try #require(throws: ContextError.self) { try context.save() }
        #expect(error.code == .mergeConflict)
        return error
    }

    @Test func theSecondOfTwoSavesOfOneObjectFailsNamingVersionsAndChangedKeys() throws {
        let stack = try Stack()
        let seed = try stack.seed()
        let (first, second) = (stack.context("first"), stack.context("second"))
        let firstBook = try first.performAndWait { try first.existingObject(with: seed.book) }
        let secondBook = try second.performAndWait { try second.existingObject(with: seed.book) }
        try first.performAndWait {
            try firstBook.setValue("Dune (first)", forKey: "title")
            try first.save()
        }
        try second.performAndWait {
            try secondBook.setValue("Dune (second)", forKey: "title")
            try secondBook.setValue(.integer32(500), forKey: "pages")
            let error = try conflict(second)
            #expect(
                error.conflicts == [
                    ContextError.MergeConflict(
                        objectID: seed.book, cachedVersion: 1, storedVersion: 2, changedKeys: ["pages", "title"])
                ])
            #expect(error.message.contains(seed.book.uriString))
            #expect(error.message.contains("version 1"))
            #expect(error.message.contains("version 2"))
            #expect((error.underlying as? StoreError)?.code == .conflict)
            #expect(secondBook.isUpdated)
            #expect(second.hasChanges)
        }
        let stored = try #require(try stack.snapshot(seed.book))
        #expect(stored.version == 2)
        #expect(stored.values["title"] == "Dune (first)")
        #expect(stored.values["pages"] == .integer32(412))
    }

    @Test func aConflictWritesNothingToTheStoreItHappensIn() throws {
        let stack = try Stack()
        let seed = try stack.seed()
        let second = stack.context("second")
        let book = try second.performAndWait { try second.existingObject(with: seed.book) }
        try stack.save("Dune (first)", forKey: "title", of: seed.book)
        try second.performAndWait {
            try book.setValue("Dune (second)", forKey: "title")
            try second.existingObject(with: seed.other).setValue("Emma (second)", forKey: "title")
            let fresh = try second.insertNewObject(forEntityName: "Book")
            try fresh.setValue("Fresh", forKey: "title")
            let error = try conflict(second)
            #expect(error.conflicts.map(\.objectID) == [seed.book])
            #expect(fresh.isInserted)
        }
        #expect(try stack.count("Book", in: stack.shelf) == 2)
        #expect(try stack.snapshot(seed.other)?.values["title"] == "Emma")
        #expect(try stack.snapshot(seed.other)?.version == 1)
        #expect(try stack.snapshot(seed.book)?.values["title"] == "Dune (first)")
    }

    @Test func aConflictInOneStoreLeavesTheOtherStoresUnwrittenToo() throws {
        let stack = try Stack()
        let seed = try stack.seed()
        let second = stack.context("second")
        let book = try second.performAndWait { try second.existingObject(with: seed.book) }
        try stack.save("Dune (first)", forKey: "title", of: seed.book)
        try second.performAndWait {
            let note = try second.insertNewObject(forEntityName: "Note")
            try note.setValue("jot", forKey: "text")
            try book.setValue("Dune (second)", forKey: "title")
            let error = try conflict(second)
            #expect(error.conflicts.map(\.objectID) == [seed.book])
            #expect(note.isInserted)
            #expect(note.objectID.isTemporary)
            #expect(try stack.count("Note", in: stack.pad) == 0)
            #expect(second.insertedObjects == [note])
            #expect(second.updatedObjects == [book])
        }
    }

    @Test func deletingAnObjectAnotherContextChangedIsAConflict() throws {
        let stack = try Stack()
        let seed = try stack.seed()
        let second = stack.context("second")
        let other = try second.performAndWait { try second.existingObject(with: seed.other) }
        try stack.save(.integer32(10), forKey: "pages", of: seed.other)
        try second.performAndWait {
            try second.delete(other)
            let error = try conflict(second)
            #expect(error.conflicts.map(\.objectID) == [seed.other])
            #expect(error.conflicts.first?.cachedVersion == 1)
            #expect(error.conflicts.first?.storedVersion == 2)
            #expect(other.isDeleted)
        }
        #expect(try stack.snapshot(seed.other)?.values["pages"] == .integer32(10))
    }

    @Test func changingAnObjectAnotherContextDeletedIsAConflictWithNoStoredVersion() throws {
        let stack = try Stack()
        let seed = try stack.seed()
        let (first, second) = (stack.context("first"), stack.context("second"))
        let secondOther = try second.performAndWait { try second.existingObject(with: seed.other) }
        try first.performAndWait {
            try first.delete(try first.existingObject(with: seed.other))
            try first.save()
        }
        try second.performAndWait {
            try secondOther.setValue("Emma, again", forKey: "title")
            let error = try conflict(second)
            #expect(
                error.conflicts == [
                    ContextError.MergeConflict(
                        objectID: seed.other, cachedVersion: 1, storedVersion: nil, changedKeys: ["title"])
                ])
            #expect(error.message.contains("no longer there"))
        }
        #expect(try stack.snapshot(seed.other) == nil)
    }

    @Test func everyConflictingObjectIsListed() throws {
        let stack = try Stack()
        let seed = try stack.seed()
        let second = stack.context("second")
        let (author, book, other) = try second.performAndWait {
            (
                try second.existingObject(with: seed.author), try second.existingObject(with: seed.book),
                try second.existingObject(with: seed.other)
            )
        }
        try stack.save("Frank Herbert", forKey: "name", of: seed.author)
        try stack.save(.integer32(600), forKey: "pages", of: seed.book)
        try second.performAndWait {
            try author.setValue("F. Herbert", forKey: "name")
            try book.setValue("Dune!", forKey: "title")
            try other.setValue("Emma!", forKey: "title")
            let error = try conflict(second)
            #expect(
                Set(error.conflicts) == [
                    ContextError.MergeConflict(
                        objectID: seed.author, cachedVersion: 1, storedVersion: 2, changedKeys: ["name"]),
                    ContextError.MergeConflict(
                        objectID: seed.book, cachedVersion: 1, storedVersion: 2, changedKeys: ["title"]),
                ])
            #expect(error.message.contains(seed.author.uriString) && error.message.contains(seed.book.uriString))
        }
        #expect(try stack.snapshot(seed.other)?.values["title"] == "Emma")
    }

    @Test func aChangedToManyRelationshipIsAChangedKey() throws {
        let stack = try Stack()
        let seed = try stack.seed()
        let second = stack.context("second")
        let (author, other) = try second.performAndWait {
            (try second.existingObject(with: seed.author), try second.existingObject(with: seed.other))
        }
        try stack.save("Frank Herbert", forKey: "name", of: seed.author)
        try second.performAndWait {
            try other.setObject(author, forKey: "author")
            let error = try conflict(second)
            #expect(
                error.conflicts == [
                    ContextError.MergeConflict(
                        objectID: seed.author, cachedVersion: 1, storedVersion: 2, changedKeys: ["books"])
                ])
        }
        #expect(try stack.shelf.relatedObjectIDs(of: seed.author, relationship: "books") == [seed.book])
        #expect(try stack.snapshot(seed.other)?.values["author"] == .null)
    }

    @Test func refreshingTheConflictingObjectLetsTheSaveSucceedWritingEachNewObjectOnce() throws {
        let stack = try Stack()
        let seed = try stack.seed()
        let second = stack.context("second")
        let book = try second.performAndWait { try second.existingObject(with: seed.book) }
        try stack.save(.integer32(600), forKey: "pages", of: seed.book)
        try second.performAndWait {
            try book.setValue("Dune (second)", forKey: "title")
            let fresh = try second.insertNewObject(forEntityName: "Book")
            try fresh.setValue("Fresh", forKey: "title")
            _ = try conflict(second)
            try second.refresh(book, mergeChanges: true)
            try second.save()
            #expect(!second.hasChanges)
            #expect(!fresh.objectID.isTemporary)
            #expect(second.registeredObject(for: fresh.objectID) === fresh)
            #expect(try stack.shelf.snapshot(for: fresh.objectID)?.values["title"] == "Fresh")
        }
        let stored = try #require(try stack.snapshot(seed.book))
        #expect(stored.version == 3)
        #expect(stored.values["title"] == "Dune (second)")
        #expect(stored.values["pages"] == .integer32(600))
        var fresh = FetchRequest<ManagedObject>(entityName: "Book")
        fresh.predicate = try FetchPredicate(format: "title == 'Fresh'")
        let reader = stack.context("reader")
        #expect(try reader.performAndWait { try reader.count(for: fresh) } == 1)
        #expect(try stack.count("Book", in: stack.shelf) == 3)
    }

    @Test func aNewObjectLeftPendingByAConflictCanBeDeletedBeforeTheRetry() throws {
        let stack = try Stack()
        let seed = try stack.seed()
        let second = stack.context("second")
        let book = try second.performAndWait { try second.existingObject(with: seed.book) }
        try stack.save(.integer32(600), forKey: "pages", of: seed.book)
        try second.performAndWait {
            try book.setValue("Dune (second)", forKey: "title")
            let dropped = try second.insertNewObject(forEntityName: "Book")
            try dropped.setValue("Dropped", forKey: "title")
            _ = try conflict(second)

            try second.delete(dropped)
            try second.refresh(book, mergeChanges: true)
            try second.save()
            #expect(!second.hasChanges)
            #expect(dropped.managedObjectContext == nil)
            #expect(second.registeredObject(for: dropped.objectID) == nil)
        }
        #expect(try stack.count("Book", in: stack.shelf) == 2)
        #expect(try stack.snapshot(seed.book)?.values["title"] == "Dune (second)")
    }

    @Test func newObjectsOfAStoreThatWasNotWrittenKeepTheirTemporaryIDs() throws {
        let stack = try Stack()
        let seed = try stack.seed()
        let second = stack.context("second")
        let book = try second.performAndWait { try second.existingObject(with: seed.book) }
        try stack.save(.integer32(600), forKey: "pages", of: seed.book)
        try second.performAndWait {
            try book.setValue("Dune (second)", forKey: "title")
            let author = try second.insertNewObject(forEntityName: "Author")
            try author.setValue("Anonymous", forKey: "name")
            try book.setObject(author, forKey: "author")
            let loner = try second.insertNewObject(forEntityName: "Author")
            try loner.setValue("Loner", forKey: "name")
            let dropped = try second.insertNewObject(forEntityName: "Author")
            try dropped.setValue("Dropped", forKey: "name")
            let temporary = [author, loner, dropped].map(\.objectID)
            _ = try conflict(second)

            #expect([author, loner, dropped].map(\.objectID) == temporary)
            #expect(temporary.allSatisfy { $0.isTemporary })
            #expect(second.registeredObject(for: temporary[0]) === author)
            #expect(try book.value(forKey: "author") == .objectID(temporary[0]))
            #expect(try author.objects(forKey: "books") == [book])
            #expect(try loner.objects(forKey: "books").isEmpty)
            try second.delete(dropped)

            try second.refresh(book, mergeChanges: true)
            try second.save()
            #expect(!author.objectID.isTemporary && !loner.objectID.isTemporary)
            #expect(try stack.snapshot(seed.book)?.values["author"] == .objectID(author.objectID))
            #expect(try stack.shelf.relatedObjectIDs(of: author.objectID, relationship: "books") == [seed.book])
        }
        #expect(try stack.count("Author", in: stack.shelf) == 3)
    }

    @Test func rollingBackAfterAConflictForgetsTheNewObjects() throws {
        let stack = try Stack()
        let seed = try stack.seed()
        let second = stack.context("second")
        let book = try second.performAndWait { try second.existingObject(with: seed.book) }
        try stack.save(.integer32(600), forKey: "pages", of: seed.book)
        try second.performAndWait {
            try book.setValue("Dune (second)", forKey: "title")
            let undone = try second.insertNewObject(forEntityName: "Author")
            try undone.setValue("Undone", forKey: "name")
            _ = try conflict(second)

            second.rollback()
            #expect(!second.hasChanges)
            #expect(undone.managedObjectContext == nil)
            #expect(second.registeredObject(for: undone.objectID) == nil)
            #expect(!second.registeredObjects.contains(undone))
            #expect(try book.value(forKey: "title") == "Dune")
            try second.save()
        }
        #expect(try stack.count("Author", in: stack.shelf) == 1)
    }
}
