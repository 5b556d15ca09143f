import Foundation
import StrataTestSupport
import Testing

@testable import Strata

/// Saving to in-memory stores: permanent IDs, stored values, versions, defaults and store placement.
@Suite struct ManagedObjectContextSaveTests {
    /// Authors and books in configuration "Shelf", notes (which may point at a book) in "Pad";
    /// one in-memory store each. The pad keeps no references across stores when
    /// `padRefersAcross` is off.
    struct Stack {
        let coordinator: PersistentStoreCoordinator
        let shelf: any IncrementalStore
        let pad: any IncrementalStore
        let context: ManagedObjectContext

        init(padRefersAcross: Bool = true) throws {
            let model = ManagedObjectModel {
                EntityDescription("Author") {
                    AttributeDescription("name", .string)
                    RelationshipDescription.toMany("books", destination: "Book", inverse: "author")
                }
                EntityDescription("Book") {
                    AttributeDescription("title", .string)
                    AttributeDescription("subtitle", .string)
                    AttributeDescription("pages", .integer32, default: 120)
                    AttributeDescription("price", .double, default: 9.5)
                    AttributeDescription("inPrint", .boolean, default: true)
                    AttributeDescription("format", .string, default: "paperback")
                    RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
                    RelationshipDescription.toMany("notes", destination: "Note", inverse: "book")
                }
                EntityDescription("Note") {
                    AttributeDescription("text", .string)
                    RelationshipDescription.toOne("book", destination: "Book", inverse: "notes")
                }
                ConfigurationDescription("Shelf", entities: ["Author", "Book"])
                ConfigurationDescription("Pad", entities: ["Note"])
            }
            coordinator = try PersistentStoreCoordinator(model: model)
            shelf = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Shelf")
            if padRefersAcross {
                pad = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Pad")
            } else {
                pad = NoReferencesAcrossStores(
                    try StoreType.inMemory.open(StoreOpenRequest(model: model, configurationName: "Pad", url: nil)))
                try coordinator.add(pad)
            }
            context = ManagedObjectContext(coordinator: coordinator)
        }

        @discardableResult
        func insert(_ entity: String, _ values: [String: AttributeValue] = [:]) throws -> ManagedObject {
            let object = try context.insertNewObject(forEntityName: entity)
            for (key, value) in values { try object.setValue(value, forKey: key) }
            return object
        }

        func count(_ entity: String, in store: any IncrementalStore) throws -> Int {
            guard case .count(let count) = try store.execute(StoreFetchRequest(entityName: entity, resultType: .count))
            else { return -1 }
            return count
        }

        func version(of object: ManagedObject) throws -> Int64? {
            try coordinator.store(for: object.objectID).snapshot(for: object.objectID)?.version
        }
    }

    @Test func anObjectIDAttributeNamingANewObjectSavesItsPermanentID() throws {
        let model = ManagedObjectModel {
            EntityDescription("Bookmark") {
                AttributeDescription("target", .objectID)
                AttributeDescription("label", .string)
            }
        }
        let coordinator = try PersistentStoreCoordinator(model: model)
        let store = try coordinator.addStore(type: StoreType.inMemory.name)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let target = try context.insertNewObject(forEntityName: "Bookmark")
            let bookmark = try context.insertNewObject(forEntityName: "Bookmark")
            try bookmark.setValue(.objectID(target.objectID), forKey: "target")
            try bookmark.setValue("first", forKey: "label")
            try context.save()
            #expect(!target.objectID.isTemporary)
            #expect(try bookmark.value(forKey: "target") == .objectID(target.objectID))
            #expect(try bookmark.value(forKey: "label") == "first")
            #expect(try store.snapshot(for: bookmark.objectID)?.values["target"] == .objectID(target.objectID))
        }
    }

    @Test func newObjectsHaveTemporaryIDsUntilSavedAndPermanentOnesAfter() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let author = try stack.insert("Author", ["name": "Le Guin"])
            let book = try stack.insert("Book", ["title": "Earthsea"])
            let note = try stack.insert("Note", ["text": "reread"])
            try book.setObject(author, forKey: "author")
            let temporary = [author, book, note].map(\.objectID)
            #expect(temporary.allSatisfy { $0.isTemporary })
            #expect(temporary.allSatisfy { $0.storeIdentifier == nil })

            try stack.context.save()

            let permanent = [author, book, note].map(\.objectID)
            #expect(permanent.allSatisfy { !$0.isTemporary })
            #expect(Set(permanent).count == 3)
            #expect(author.objectID.storeIdentifier == stack.shelf.identifier)
            #expect(book.objectID.storeIdentifier == stack.shelf.identifier)
            #expect(note.objectID.storeIdentifier == stack.pad.identifier)
            #expect(zip([author, book, note], permanent).allSatisfy { $1.entityName == $0.entity.name })
            for (object, old) in zip([author, book, note], temporary) {
                #expect(stack.context.registeredObject(for: object.objectID) === object)
                #expect(stack.context.registeredObject(for: old) == nil)
            }
            #expect(try book.value(forKey: "author") == .objectID(author.objectID))
            #expect(try stack.shelf.snapshot(for: book.objectID)?.values["author"] == .objectID(author.objectID))
            #expect(try stack.shelf.relatedObjectIDs(of: author.objectID, relationship: "books") == [book.objectID])
        }
    }

    @Test func savedObjectsCanBeReadFromTheirStore() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let author = try stack.insert("Author", ["name": "Herbert"])
            let book = try stack.insert("Book", ["title": "Dune", "pages": .integer32(412), "price": 12.25])
            try book.setObject(author, forKey: "author")
            let note = try stack.insert("Note", ["text": "spice"])
            try stack.context.save()

            let snapshot = try #require(try stack.shelf.snapshot(for: book.objectID))
            #expect(snapshot.objectID == book.objectID)
            #expect(
                snapshot.values == [
                    "title": "Dune", "subtitle": .null, "pages": .integer32(412), "price": .double(12.25),
                    "inPrint": true, "format": "paperback", "author": .objectID(author.objectID),
                ])
            #expect(try stack.shelf.snapshot(for: author.objectID)?.values == ["name": "Herbert"])
            #expect(try stack.pad.snapshot(for: note.objectID)?.values == ["text": "spice", "book": .null])
            #expect(try stack.pad.snapshot(for: book.objectID) == nil)
        }
        let reader = ManagedObjectContext(coordinator: stack.coordinator)
        try reader.performAndWait {
            let books = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
            #expect(books.count == 1)
            #expect(try books.first?.value(forKeyPath: "author.name") == "Herbert")
        }
    }

    @Test func storedVersionsStartAtOneAndGrowByOnePerSavedChange() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let author = try stack.insert("Author", ["name": "Ada"])
            let book = try stack.insert("Book", ["title": "Notes"])
            let bystander = try stack.insert("Book", ["title": "Untouched"])
            try stack.context.save()
            #expect(try stack.version(of: author) == 1)
            #expect(try stack.version(of: book) == 1)

            try book.setValue("Notes, revised", forKey: "title")
            try stack.context.save()
            #expect(try stack.version(of: book) == 2)

            try book.setValue("Notes, third", forKey: "title")
            try book.setValue(.integer32(99), forKey: "pages")
            try stack.context.save()
            #expect(try stack.version(of: book) == 3)

            try stack.context.save()
            #expect(try stack.version(of: book) == 3)

            try book.setValue("Changed back", forKey: "title")
            try book.setValue("Notes, third", forKey: "title")
            try stack.context.save()
            #expect(try stack.version(of: book) == 3)

            try book.setObject(author, forKey: "author")
            try stack.context.save()
            #expect(try stack.version(of: book) == 4)
            #expect(try stack.version(of: author) == 2)
            #expect(try stack.version(of: bystander) == 1)
            #expect(book.committedVersion == 4)
            #expect(author.committedVersion == 2)
        }
    }

    @Test func insertedObjectsStartWithTheModelDefaults() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book")
            #expect(try book.value(forKey: "pages") == .integer32(120))
            #expect(try book.value(forKey: "price") == .double(9.5))
            #expect(try book.value(forKey: "inPrint") == true)
            #expect(try book.value(forKey: "format") == "paperback")
            #expect(try book.value(forKey: "title") == .null)
            #expect(try book.value(forKey: "author") == .null)
            let hardback = try stack.insert("Book", ["format": "hardback", "pages": .integer32(300)])
            try stack.context.save()

            let stored = try #require(try stack.shelf.snapshot(for: book.objectID)).values
            #expect(stored["pages"] == .integer32(120))
            #expect(stored["price"] == .double(9.5))
            #expect(stored["inPrint"] == true)
            #expect(stored["format"] == "paperback")
            #expect(stored["title"] == .null)
            let other = try #require(try stack.shelf.snapshot(for: hardback.objectID)).values
            #expect(other["format"] == "hardback")
            #expect(other["pages"] == .integer32(300))
            #expect(other["price"] == .double(9.5))
        }
    }

    @Test func nothingIsPendingAfterASave() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let kept = try stack.insert("Book", ["title": "Kept"])
            let doomed = try stack.insert("Book", ["title": "Doomed"])
            try stack.context.save()
            #expect(!stack.context.hasChanges)

            try kept.setValue("Kept, changed", forKey: "title")
            try stack.context.delete(doomed)
            let added = try stack.insert("Note", ["text": "new"])
            #expect(stack.context.hasChanges)
            #expect(stack.context.insertedObjects == [added])
            #expect(stack.context.updatedObjects == [kept])
            #expect(stack.context.deletedObjects == [doomed])
            #expect(kept.hasChanges && added.hasChanges && doomed.hasChanges)

            try stack.context.save()
            #expect(!stack.context.hasChanges)
            #expect(stack.context.insertedObjects.isEmpty)
            #expect(stack.context.updatedObjects.isEmpty)
            #expect(stack.context.deletedObjects.isEmpty)
            #expect(!kept.hasChanges && !kept.isUpdated && kept.changedValues().isEmpty)
            #expect(!added.hasChanges && !added.isInserted)
            #expect(try stack.shelf.snapshot(for: kept.objectID)?.values["title"] == "Kept, changed")
            #expect(try stack.shelf.snapshot(for: doomed.objectID) == nil)
        }
    }

    @Test func didSaveListsThePermanentIDs() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            var posted: [ContextNotification] = []
            stack.context.addObserver(for: .didSave) { posted.append($0.notification) }
            let book = try stack.insert("Book", ["title": "Dune"])
            let note = try stack.insert("Note", ["text": "spice"])
            try stack.context.save()
            #expect(posted.count == 1)
            #expect(posted.first?.insertedObjectIDs == [book.objectID, note.objectID])
            #expect(posted.first?.insertedObjectIDs.allSatisfy { !$0.isTemporary } == true)

            try book.setValue("Dune Messiah", forKey: "title")
            try stack.context.delete(note)
            try stack.context.save()
            #expect(posted.count == 2)
            #expect(posted.last?.updatedObjectIDs == [book.objectID])
            #expect(posted.last?.deletedObjectIDs == [note.objectID])
            #expect(posted.last?.insertedObjectIDs.isEmpty == true)
        }
    }

    @Test func anEntityNoAddedStoreHoldsFailsTheSaveAndNothingIsWritten() throws {
        let stack = try Stack()
        try stack.coordinator.remove(stack.shelf)
        try stack.context.performAndWait {
            let note = try stack.insert("Note", ["text": "orphan"])
            let book = try stack.insert("Book", ["title": "Homeless"])
            let error = try #require(throws: ContextError.self) { try stack.context.save() }
            #expect(error.code == .noStore)
            #expect(error.message.contains("'Book'"))
            #expect(error.message.contains(book.objectID.uriString))
            #expect(try stack.count("Note", in: stack.pad) == 0)
            #expect(note.objectID.isTemporary && book.objectID.isTemporary)
            #expect(stack.context.insertedObjects == [note, book])
        }
    }

    @Test func anObjectAssignedToAStoreWithoutItsEntityFailsTheSaveAndNothingIsWritten() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let note = try stack.insert("Note", ["text": "fine"])
            let author = try stack.insert("Author", ["name": "fine too"])
            let book = try stack.insert("Book", ["title": "Misplaced"])
            stack.context.assign(book, to: stack.pad)
            let error = try #require(throws: ContextError.self) { try stack.context.save() }
            #expect(error.code == .noStore)
            #expect(error.message.contains(book.objectID.uriString))
            #expect(error.message.contains(stack.pad.identifier))
            #expect(error.message.contains("'Book'"))
            #expect(try stack.count("Note", in: stack.pad) == 0)
            #expect(try stack.count("Author", in: stack.shelf) == 0)
            #expect(try stack.count("Book", in: stack.shelf) == 0)
            #expect([note, author, book].allSatisfy { $0.objectID.isTemporary && $0.isInserted })

            stack.context.assign(book, to: stack.shelf)
            try stack.context.save()
            #expect(book.objectID.storeIdentifier == stack.shelf.identifier)
            #expect(try stack.count("Book", in: stack.shelf) == 1)
        }
    }

    /// A store that does not declare ``StoreCapabilities/crossStoreRelationships``.
    final class NoReferencesAcrossStores: ForwardingStore, @unchecked Sendable {
        // Safe: it adds no state to ForwardingStore.
        override var capabilities: StoreCapabilities { base.capabilities.subtracting(.crossStoreRelationships) }
    }

    @Test func aRelationshipAcrossStoresThatKeepReferencesIsSavedInBoth() throws {
        let stack = try Stack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            let note = try stack.insert("Note", ["text": "spice"])
            try note.setObject(book, forKey: "book")
            try stack.context.save()
            #expect(try stack.shelf.relatedObjectIDs(of: book.objectID, relationship: "notes") == [note.objectID])
            #expect(try stack.pad.snapshot(for: note.objectID)?.values["book"] == .objectID(book.objectID))
        }
    }

    @Test func aRelationshipBetweenNewObjectsOfTwoStoresIsRejectedNamingBoth() throws {
        let stack = try Stack(padRefersAcross: false)
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            let note = try stack.insert("Note", ["text": "spice"])
            try note.setObject(book, forKey: "book")
            let error = try #require(throws: ContextError.self) { try stack.context.save() }
            #expect(error.code == .crossStoreRelationship)
            #expect(error.message.contains(book.objectID.uriString))
            #expect(error.message.contains(note.objectID.uriString))
            #expect(error.message.contains("'Book.notes'") || error.message.contains("'Note.book'"))
            #expect(try stack.count("Book", in: stack.shelf) == 0)
            #expect(try stack.count("Note", in: stack.pad) == 0)
            #expect(book.objectID.isTemporary && note.objectID.isTemporary)
            #expect(stack.context.hasChanges)
        }
    }

    @Test func aRelationshipFromASavedObjectToANewObjectOfAnotherStoreIsRejected() throws {
        let stack = try Stack(padRefersAcross: false)
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            try stack.context.save()
            let note = try stack.insert("Note", ["text": "spice"])
            try book.addObject(note, forKey: "notes")
            #expect(try note.object(forKey: "book") === book)
            let error = try #require(throws: ContextError.self) { try stack.context.save() }
            #expect(error.code == .crossStoreRelationship)
            #expect(error.message.contains(book.objectID.uriString))
            #expect(error.message.contains(note.objectID.uriString))
            #expect(try stack.count("Note", in: stack.pad) == 0)
            #expect(try stack.version(of: book) == 1)
            #expect(try stack.shelf.relatedObjectIDs(of: book.objectID, relationship: "notes") == [])
        }
    }
}
