import Foundation
import Testing

@testable import Strata

/// Saving: permanent IDs and versions, validation that reports every problem, optimistic-lock
/// conflicts, and each delete rule.
@Suite struct ContextSavingTests {
    @Test func savingGivesPermanentIDsAndVersionsThatGrowByOne() throws {
        let stack = try LibraryStack()
        let book = try stack.insert("Book", ["title": "Dune"])
        try stack.context.performAndWait {
            #expect(book.objectID.isTemporary && book.isInserted && stack.context.hasChanges)
            #expect(try book.value(forKey: "pages") == 100)
            try stack.context.save()
            #expect(!book.objectID.isTemporary && !book.isInserted && !stack.context.hasChanges)
            #expect(stack.context.registeredObject(for: book.objectID) === book)
        }
        #expect(try stack.store.snapshot(for: book.objectID)?.version == 1)
        for pages in [200, 300] {
            try stack.context.performAndWait {
                try book.setValue(.integer32(Int32(pages)), forKey: "pages")
                #expect(book.isUpdated && book.changedValues() == ["pages": .integer32(Int32(pages))])
                try stack.context.save()
            }
        }
        let snapshot = try #require(try stack.store.snapshot(for: book.objectID))
        #expect(snapshot.version == 3 && snapshot.values["pages"] == 300)
    }

    @Test func validationReportsEveryProblemAndWritesNothing() throws {
        let stack = try LibraryStack()
        let book = try stack.insert("Book", ["title": "", "pages": 0, "isbn": "12-34"])
        let author = try stack.insert("Author")
        let error = try #require(try saveError(stack))
        #expect(error.code == .validation)
        let found = Set(
            error.validationErrors.map {
                "\($0.objectID == book.objectID ? "book" : "author").\($0.key ?? "")/\($0.code)"
            })
        #expect(
            found == [
                "book.title/tooShort", "book.pages/tooSmall", "book.isbn/patternMismatch", "author.name/missingValue",
            ])
        #expect(try stack.storedCount("Book") == 0 && stack.context.performAndWait { book.objectID.isTemporary })
        _ = author
    }

    @Test func aStaleSaveIsAMergeConflictNamingObjectVersionsAndKeys() throws {
        let stack = try LibraryStack()
        let book = try stack.insert("Book", ["title": "Dune"])
        try stack.context.performAndWait { try stack.context.save() }
        let other = try stack.sibling()
        let copy = try other.context.performAndWait { try other.context.existingObject(with: book.objectID) }
        try other.context.performAndWait {
            try copy.setValue("Dune Messiah", forKey: "title")
            try other.context.save()
        }
        try stack.context.performAndWait { try book.setValue(.integer32(412), forKey: "pages") }
        let error = try saveError(stack)
        let conflict = try #require(error?.conflicts.first)
        #expect(error?.code == .mergeConflict)
        #expect(conflict.objectID == book.objectID && conflict.cachedVersion == 1 && conflict.storedVersion == 2)
        #expect(conflict.changedKeys == ["pages"])
        #expect(try stack.store.snapshot(for: book.objectID)?.values["title"] == "Dune Messiah")
    }

    @Test func nullifyEmptiesTheInverseAndCascadeFollowsChains() throws {
        let stack = try LibraryStack()
        let author = try stack.insert("Author", ["name": "Herbert"])
        let book = try stack.insert("Book", ["title": "Dune"])
        let shelf = try stack.insert("Shelf", ["label": "SF"])
        try stack.context.performAndWait {
            try book.setObject(author, forKey: "author")
            try book.setObject(shelf, forKey: "shelf")
            for number in 1...2 {
                let chapter = try stack.context.insertNewObject(forEntityName: "Chapter")
                try chapter.setValue(.integer16(Int16(number)), forKey: "number")
                try chapter.setObject(book, forKey: "book")
                let section = try stack.context.insertNewObject(forEntityName: "Section")
                try section.setObject(chapter, forKey: "chapter")
            }
            try stack.context.save()

            try stack.context.delete(book)
            #expect(try shelf.objects(forKey: "books").isEmpty)
            #expect(try author.objects(forKey: "books").isEmpty)
            #expect(stack.context.deletedObjects.count == 5)
            try stack.context.save()
        }
        #expect(try stack.storedCount("Chapter") == 0 && stack.storedCount("Section") == 0)
        #expect(try stack.storedCount("Shelf") == 1 && stack.storedCount("Author") == 1)
    }

    @Test func cascadeThroughACycleEnds() throws {
        let stack = try LibraryStack()
        let rings = try (0..<3).map { try stack.insert("Ring", ["name": .string("r\($0)")]) }
        try stack.context.performAndWait {
            for index in rings.indices { try rings[index].setObject(rings[(index + 1) % 3], forKey: "next") }
            try stack.context.save()
            try stack.context.delete(rings[0])
            #expect(rings.filter(\.isDeleted).count == 3)
            try stack.context.save()
        }
        #expect(try stack.storedCount("Ring") == 0)
    }

    @Test func denyFailsTheSaveNamingObjectAndRelationship() throws {
        let stack = try LibraryStack()
        let shelf = try stack.insert("Shelf", ["label": "SF"])
        let book = try stack.insert("Book", ["title": "Dune"])
        try stack.context.performAndWait {
            try book.setObject(shelf, forKey: "shelf")
            try stack.context.save()
            try stack.context.delete(shelf)
        }
        let error = try saveError(stack)
        let denial = try #require(error?.validationErrors.first)
        #expect(error?.code == .validation && denial.code == .deleteDenied)
        #expect(denial.objectID == shelf.objectID && denial.key == "books")
        #expect(try stack.storedCount("Shelf") == 1)
    }

    @Test func noActionLeavesTheDestinationsAlone() throws {
        let stack = try LibraryStack()
        let book = try stack.insert("Book", ["title": "Dune"])
        let tag = try stack.insert("Tag", ["name": "classic"])
        try stack.context.performAndWait {
            try book.addObject(tag, forKey: "tags")
            try stack.context.save()
            try stack.context.delete(book)
            #expect(!tag.isDeleted && !tag.isUpdated)
            try stack.context.save()
        }
        #expect(try stack.storedCount("Tag") == 1 && stack.storedCount("Book") == 0)
    }

    @Test func deletingANewObjectForgetsItAndNullifiesItsRelationships() throws {
        let stack = try LibraryStack()
        let shelf = try stack.insert("Shelf", ["label": "SF"])
        try stack.context.performAndWait { try stack.context.save() }
        let book = try stack.insert("Book", ["title": "Draft"])
        try stack.context.performAndWait {
            try book.setObject(shelf, forKey: "shelf")
            try stack.context.delete(book)
            #expect(book.isDeleted && book.managedObjectContext === stack.context)
            #expect(try shelf.objects(forKey: "books").isEmpty)
            #expect(stack.context.insertedObjects.isEmpty && stack.context.deletedObjects.isEmpty)
            #expect(stack.context.registeredObject(for: book.objectID) == nil)
        }
        #expect(book.managedObjectContext == nil)
        try stack.context.performAndWait { try stack.context.save() }
        #expect(try stack.storedCount("Book") == 0)
    }

    /// The error saving `stack`'s context throws, or `nil` when the save succeeds.
    private func saveError(_ stack: LibraryStack) throws -> ContextError? {
        try stack.context.performAndWait { () throws -> ContextError? in
            do {
                try stack.context.save()
                return nil
            } catch let error as ContextError {
                return error
            }
        }
    }
}
