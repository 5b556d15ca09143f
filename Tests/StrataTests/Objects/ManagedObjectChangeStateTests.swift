import Foundation
import Testing

@testable import Strata

/// An object's change state through insert, save, change, delete and fetch.
@Suite struct ManagedObjectChangeStateTests {
    @Test func aNewObjectIsInsertedWithEverySetValueChanged() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"])
            let book = try stack.insert("Book", ["title": "Dune", "pages": .integer32(412)])
            try book.setObject(ada, forKey: "author")
            #expect(book.isInserted && !book.isUpdated && !book.isDeleted && !book.isFault)
            #expect(book.hasChanges)
            let changed = book.changedValues()
            #expect(changed["title"] == "Dune")
            #expect(changed["pages"] == .integer32(412))
            #expect(changed["author"] == .objectID(ada.objectID))
            #expect(changed["price"] == nil)
            #expect(book.committedValues(forKeys: nil).isEmpty)
            #expect(stack.context.insertedObjects == [ada, book])
        }
    }

    @Test func aSavedObjectHasNoChangesAndItsValuesAreCommitted() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"])
            let book = try stack.insert("Book", ["title": "Dune", "pages": .integer32(412)])
            try book.setObject(ada, forKey: "author")
            try stack.context.save()
            #expect(!book.isInserted && !book.isUpdated && !book.isDeleted && !book.hasChanges)
            #expect(book.changedValues().isEmpty)
            #expect(!stack.context.hasChanges)
            #expect(book.committedValues(forKeys: ["title", "pages"]) == ["title": "Dune", "pages": .integer32(412)])
            #expect(book.committedValues(forKeys: ["author"]) == ["author": .objectID(ada.objectID)])
            #expect(!ada.objectID.isTemporary)
        }
    }

    @Test func aChangedSavedObjectIsUpdatedAndRemembersItsCommittedValues() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune", "pages": .integer32(412)])
            try stack.context.save()
            try book.setValue(.integer32(500), forKey: "pages")
            #expect(book.isUpdated && book.hasChanges && !book.isInserted && !book.isDeleted)
            #expect(book.changedValues() == ["pages": .integer32(500)])
            #expect(book.committedValues(forKeys: ["pages", "title"]) == ["pages": .integer32(412), "title": "Dune"])
            #expect(stack.context.updatedObjects == [book])
            try stack.context.save()
            #expect(!book.isUpdated && book.changedValues().isEmpty)
            #expect(book.committedValues(forKeys: ["pages"]) == ["pages": .integer32(500)])
            #expect(try stack.stored(book.objectID)?["pages"] == .integer32(500))
        }
    }

    @Test func changingAValueBackToItsSavedValueIsNoUpdate() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            try stack.context.save()
            try book.setValue("Emma", forKey: "title")
            #expect(book.isUpdated)
            try book.setValue("Dune", forKey: "title")
            #expect(!book.isUpdated)
            #expect(book.changedValues().isEmpty)
            #expect(stack.context.updatedObjects.isEmpty)
        }
    }

    @Test func aChangedMembershipMakesTheOwnerUpdated() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"])
            try stack.context.save()
            let book = try stack.insert("Book", ["title": "Dune"])
            try book.setObject(ada, forKey: "author")
            #expect(ada.isUpdated && ada.hasChanges)
            #expect(ada.changedValues().isEmpty)
            #expect(stack.context.updatedObjects == [ada])
        }
    }

    @Test func aDeletedObjectIsDeletedAndNotUpdated() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            try stack.context.save()
            try book.setValue("Emma", forKey: "title")
            try stack.context.delete(book)
            #expect(book.isDeleted && !book.isUpdated && !book.isInserted && book.hasChanges)
            #expect(stack.context.deletedObjects == [book])
            #expect(stack.context.updatedObjects.isEmpty)
            let id = book.objectID
            try stack.context.save()
            #expect(book.managedObjectContext == nil)
            #expect(stack.context.registeredObject(for: id) == nil)
            #expect(try stack.stored(id) == nil)
        }
    }

    @Test func aFetchedObjectIsAFaultWithoutChangesUntilRead() throws {
        let stack = try CatalogStack()
        let ids = try stack.saved("Book", [["title": "Dune", "pages": .integer32(412)]])
        try stack.context.performAndWait {
            let book = try #require(try stack.context.fetch(FetchRequest<ManagedObject>(entityName: "Book")).first)
            #expect(book.objectID == ids[0])
            #expect(book.isFault && !book.hasChanges && !book.isUpdated && !book.isInserted && !book.isDeleted)
            #expect(try book.value(forKey: "title") == "Dune")
            #expect(!book.isFault && !book.hasChanges)
            #expect(book.changedValues().isEmpty)
            #expect(book.committedValues(forKeys: ["pages"]) == ["pages": .integer32(412)])
        }
    }

    @Test func transientValuesAreNeitherChangesNorCommittedValues() throws {
        let stack = try CatalogStack()
        let ids = try stack.saved("Book", [["title": "Dune"]])
        try stack.context.performAndWait {
            let fetched = stack.context.object(with: ids[0])
            #expect(try fetched.value(forKey: "note") == "none")
            #expect(fetched.changedValues().isEmpty)
            #expect(fetched.committedValues(forKeys: nil)["note"] == nil)
            try fetched.setValue("scribbled", forKey: "note")
            #expect(!fetched.isUpdated)
            #expect(fetched.changedValues().isEmpty)
            #expect(stack.context.updatedObjects.isEmpty)

            let new = try stack.insert("Book", ["title": "Emma", "note": "fresh"])
            #expect(new.changedValues()["note"] == nil)
            try stack.context.save()
            #expect(try new.value(forKey: "note") == "fresh")
            #expect(new.committedValues(forKeys: nil)["note"] == nil)
            #expect(new.committedValues(forKeys: nil)["title"] == "Emma")
            #expect(try stack.stored(new.objectID)?["note"] == nil)
        }
    }

    @Test func rollbackRestoresTheCommittedState() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            try stack.context.save()
            try book.setValue("Emma", forKey: "title")
            let added = try stack.insert("Book", ["title": "New"])
            stack.context.rollback()
            #expect(try book.value(forKey: "title") == "Dune")
            #expect(!book.hasChanges && !book.isUpdated)
            #expect(added.managedObjectContext == nil)
            #expect(!stack.context.hasChanges)
        }
    }
}
