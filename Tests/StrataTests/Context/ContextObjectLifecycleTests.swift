import Foundation
import Testing

@testable import Strata

/// Rollback, reset and refresh; faults, uniquing and objects whose record vanished.
@Suite struct ContextObjectLifecycleTests {
    /// A saved book by a saved author.
    private func savedBook(in stack: LibraryStack) throws -> (book: ManagedObject, author: ManagedObject) {
        let author = try stack.insert("Author", ["name": "Herbert"])
        let book = try stack.insert("Book", ["title": "Dune", "pages": 412])
        try stack.context.performAndWait {
            try book.setObject(author, forKey: "author")
            try stack.context.save()
        }
        return (book, author)
    }

    @Test func rollbackDiscardsInsertsUpdatesAndDeletions() throws {
        let stack = try LibraryStack()
        let (book, author) = try savedBook(in: stack)
        let tag = try stack.insert("Tag", ["name": "new"])
        try stack.context.performAndWait {
            try book.setValue("Dune Messiah", forKey: "title")
            try book.setObject(nil, forKey: "author")
            try stack.context.delete(author)
            stack.context.rollback()
            #expect(!stack.context.hasChanges && tag.managedObjectContext == nil)
            #expect(try book.value(forKey: "title") == "Dune")
            #expect(try book.object(forKey: "author") === author && !author.isDeleted)
            #expect(try author.objects(forKey: "books").map(\.objectID) == [book.objectID])
            #expect(book.committedValues(forKeys: ["title"]) == ["title": "Dune"])
        }
    }

    @Test func resetForgetsEveryObject() throws {
        let stack = try LibraryStack()
        let (book, _) = try savedBook(in: stack)
        try stack.context.performAndWait {
            try book.setValue("Changed", forKey: "title")
            stack.context.reset()
            #expect(stack.context.registeredObjects.isEmpty && !stack.context.hasChanges)
            #expect(book.managedObjectContext == nil)
        }
        let again = try #require(try stack.objects("Book").first)
        let title = try stack.context.performAndWait { try again.value(forKey: "title") }
        #expect(again !== book && title == "Dune")
    }

    @Test func refreshMergesOrDiscardsUnsavedChanges() throws {
        let stack = try LibraryStack()
        let (book, _) = try savedBook(in: stack)
        let other = try stack.sibling()
        try other.context.performAndWait {
            let copy = try other.context.existingObject(with: book.objectID)
            try copy.setValue(.integer32(500), forKey: "pages")
            try other.context.save()
        }
        try stack.context.performAndWait {
            try book.setValue("Mine", forKey: "title")
            try stack.context.refresh(book, mergeChanges: true)
            #expect(try book.value(forKey: "title") == "Mine" && book.value(forKey: "pages") == 500)
            #expect(book.hasChanges)

            try stack.context.refresh(book, mergeChanges: false)
            #expect(book.isFault && !book.hasChanges)
            #expect(try book.value(forKey: "title") == "Dune" && !book.isFault)
        }
    }

    @Test func objectsAreUniquedAndFaultsLoadOnFirstUse() throws {
        let stack = try LibraryStack()
        let (book, author) = try savedBook(in: stack)
        let other = try stack.sibling()
        try other.context.performAndWait {
            let fault = other.context.object(with: book.objectID)
            #expect(fault.isFault && other.context.object(with: book.objectID) === fault)
            #expect(try fault.value(forKey: "title") == "Dune" && !fault.isFault)
            let fetched = try other.context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
            #expect(fetched.first === fault)

            let writer = other.context.object(with: author.objectID)
            #expect(writer.isFault)
            #expect(try writer.objects(forKey: "books").first === fault)
        }
    }

    @Test func existingObjectOfAMissingRecordIsNotFound() throws {
        let stack = try LibraryStack()
        let (book, _) = try savedBook(in: stack)
        try stack.context.performAndWait {
            try stack.context.delete(book)
            try stack.context.save()
            #expect {
                try stack.context.existingObject(with: book.objectID)
            } throws: {
                ($0 as? ContextError)?.code == .objectNotFound
            }
            #expect {
                try stack.context.existingObject(with: .temporary(entityName: "Book"))
            } throws: {
                ($0 as? ContextError)?.code == .objectNotFound
            }
        }
    }

    @Test(arguments: [true, false])
    func aFaultWhoseRecordVanished(deletesInaccessibleFaults: Bool) throws {
        let stack = try LibraryStack()
        let (book, _) = try savedBook(in: stack)
        let other = try stack.sibling()
        other.context.shouldDeleteInaccessibleFaults = deletesInaccessibleFaults
        let fault = other.context.performAndWait { other.context.object(with: book.objectID) }
        try stack.context.performAndWait {
            try stack.context.delete(book)
            try stack.context.save()
        }
        let result = other.context.performAndWait { Result { try fault.value(forKey: "title") } }
        if deletesInaccessibleFaults {
            #expect(try result.get() == .null)
            #expect(other.context.performAndWait { fault.isDeleted && !fault.isFault })
        } else {
            #expect(throws: ContextError.self) { try result.get() }
            if case .failure(let error as ContextError) = result { #expect(error.code == .inaccessibleFault) }
        }
    }
}
