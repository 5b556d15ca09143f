import Foundation
import Testing

@testable import Strata

/// Undoing and redoing each kind of change: inserts, deletes (with their delete rules),
/// attributes, to-one, to-many and ordered to-many relationships.
@Suite struct ContextUndoChangeTests {
    @Test func anAttributeChangeIsUndoneAndRedone() throws {
        let stack = try CatalogStack.undoable()
        let id = try stack.saved("Book", [["title": "Dune", "pages": 412]])[0]
        let book = stack.context.performAndWait { stack.context.object(with: id) }
        try stack.context.performAndWait {
            try book.setValue("Dune Messiah", forKey: "title")
            try book.setValue(256, forKey: "pages")
        }
        try stack.context.performAndWait { () throws in
            #expect(stack.undoManager.canUndo && !stack.undoManager.canRedo)
            stack.context.undo()
            #expect(try book.value(forKey: "title") == "Dune")
            #expect(try book.value(forKey: "pages") == 412)
            #expect(!stack.context.hasChanges && !book.hasChanges)
            #expect(!stack.undoManager.canUndo && stack.undoManager.canRedo)
            stack.context.redo()
            #expect(try book.value(forKey: "title") == "Dune Messiah")
            #expect(try book.value(forKey: "pages") == 256)
            #expect(stack.context.updatedObjects == [book])
        }
    }

    @Test func anInsertIsUndoneAndTheSameInstanceRedone() throws {
        let stack = try CatalogStack.undoable()
        let book = try stack.insertInBlock("Book", ["title": "Dune"])
        let temporaryID = book.objectID
        stack.context.performAndWait {
            stack.context.undo()
            #expect(!stack.context.hasChanges)
            #expect(stack.context.registeredObject(for: temporaryID) == nil)
            #expect(book.isDeleted && !book.isInserted)
        }
        #expect(try stack.fetched("Book").isEmpty)
        #expect(stack.context.performAndWait { book.managedObjectContext } == nil)
        try stack.context.performAndWait {
            stack.context.redo()
            #expect(stack.context.registeredObject(for: temporaryID) === book)
            #expect(book.isInserted && !book.isDeleted)
            #expect(try book.value(forKey: "title") == "Dune")
            try stack.context.save()
        }
        #expect(try stack.stored(book.objectID)?["title"] == "Dune")
    }

    @Test func undoingTheDeletionOfANewObjectInsertsItAgain() throws {
        let stack = try CatalogStack.undoable()
        let author = try stack.insertInBlock("Author", ["name": "Herbert"])
        let book = try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            try book.setObject(author, forKey: "author")
            return book
        }
        try stack.context.performAndWait { try stack.context.delete(book) }
        try stack.context.performAndWait { () throws in
            #expect(try author.objects(forKey: "books").isEmpty)
            stack.context.undo()
            #expect(book.isInserted && book.managedObjectContext === stack.context)
            #expect(try author.objects(forKey: "books") == [book])
            #expect(try book.object(forKey: "author") === author)
        }
    }

    @Test func aDeletionIsUndoneWithTheRelationshipsOnBothSides() throws {
        let stack = try CatalogStack.undoable()
        let (author, dune, emma) = try stack.context.performAndWait {
            let author = try stack.insert("Author", ["name": "Herbert"])
            let dune = try stack.insert("Book", ["title": "Dune"])
            let emma = try stack.insert("Book", ["title": "Emma"])
            try author.setObjects([dune, emma], forKey: "books")
            try stack.context.save()
            return (author, dune, emma)
        }
        try stack.context.performAndWait { try stack.context.delete(author) }
        try stack.context.performAndWait {
            #expect(try dune.object(forKey: "author") == nil)
            stack.context.undo()
            #expect(!author.isDeleted && !stack.context.hasChanges)
            #expect(try author.objects(forKey: "books") == [dune, emma])
            #expect(try dune.object(forKey: "author") === author)
            #expect(try emma.object(forKey: "author") === author)
            stack.context.redo()
            #expect(author.isDeleted)
            #expect(try emma.object(forKey: "author") == nil)
            try stack.context.save()
        }
        #expect(try stack.stored(author.objectID) == nil)
        #expect(try stack.stored(dune.objectID)?["author"] == .null)
    }

    @Test func undoingACascadeBringsBackEveryDeletedObjectAndNullifiedInverse() throws {
        let stack = try CatalogStack.undoable()
        let (book, cover, tag, author) = try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            let cover = try stack.insert("Cover", ["color": "ochre"])
            let tag = try stack.insert("Tag", ["label": "classic"])
            let author = try stack.insert("Author", ["name": "Herbert"])
            try book.setObject(cover, forKey: "cover")
            try book.setObject(author, forKey: "author")
            try tag.addObject(book, forKey: "books")
            try stack.context.save()
            return (book, cover, tag, author)
        }
        try stack.context.performAndWait {
            try stack.context.delete(book)
            #expect(cover.isDeleted)
            #expect(try tag.objects(forKey: "books").isEmpty)
        }
        try stack.context.performAndWait {
            stack.context.undo()
            #expect(!book.isDeleted && !cover.isDeleted)
            #expect(try cover.object(forKey: "book") === book)
            #expect(try book.object(forKey: "cover") === cover)
            #expect(try tag.objects(forKey: "books") == [book])
            #expect(try author.objects(forKey: "books") == [book])
            #expect(!stack.context.hasChanges)
            stack.context.redo()
            #expect(book.isDeleted && cover.isDeleted)
            try stack.context.save()
        }
        #expect(try stack.stored(cover.objectID) == nil)
        #expect(try stack.storedCount("Book") == 0)
    }

    @Test func aToOneChangeIsUndoneOnBothOldAndNewDestinations() throws {
        let stack = try CatalogStack.undoable()
        let (book, herbert, austen) = try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            let herbert = try stack.insert("Author", ["name": "Herbert"])
            let austen = try stack.insert("Author", ["name": "Austen"])
            try book.setObject(herbert, forKey: "author")
            return (book, herbert, austen)
        }
        try stack.context.performAndWait { try book.setObject(austen, forKey: "author") }
        try stack.context.performAndWait { () throws in
            stack.context.undo()
            #expect(try book.object(forKey: "author") === herbert)
            #expect(try herbert.objects(forKey: "books") == [book])
            #expect(try austen.objects(forKey: "books").isEmpty)
            stack.context.redo()
            #expect(try book.object(forKey: "author") === austen)
            #expect(try herbert.objects(forKey: "books").isEmpty)
            #expect(try austen.objects(forKey: "books") == [book])
        }
    }

    @Test func aManyToManyChangeIsUndoneWithItsInverses() throws {
        let stack = try CatalogStack.undoable()
        let (tag, dune, emma) = try stack.context.performAndWait {
            let tag = try stack.insert("Tag", ["label": "classic"])
            let dune = try stack.insert("Book", ["title": "Dune"])
            let emma = try stack.insert("Book", ["title": "Emma"])
            try tag.setObjects([dune], forKey: "books")
            try stack.context.save()
            return (tag, dune, emma)
        }
        try stack.context.performAndWait {
            try tag.removeObject(dune, forKey: "books")
            try emma.addObject(tag, forKey: "tags")
        }
        try stack.context.performAndWait { () throws in
            stack.context.undo()
            #expect(try tag.objects(forKey: "books") == [dune])
            #expect(try dune.objects(forKey: "tags") == [tag])
            #expect(try emma.objects(forKey: "tags").isEmpty)
            #expect(!stack.context.hasChanges)
            stack.context.redo()
            #expect(try tag.objects(forKey: "books") == [emma])
            #expect(try dune.objects(forKey: "tags").isEmpty)
            #expect(try emma.objects(forKey: "tags") == [tag])
        }
    }

    @Test func anOrderedToManyChangeIsUndoneInItsOrder() throws {
        let stack = try CatalogStack.undoable()
        let (series, volumes) = try stack.context.performAndWait {
            let series = try stack.insert("Series", ["name": "Dune"])
            let volumes = try ["Dune", "Messiah", "Children", "Emperor"].map { try stack.insert("Book", ["title": $0]) }
            try series.setObjects(Array(volumes.prefix(3)), forKey: "volumes")
            try stack.context.save()
            return (series, volumes)
        }
        try stack.context.performAndWait {
            try series.setObjects([volumes[2], volumes[0], volumes[3], volumes[1]], forKey: "volumes")
        }
        try stack.context.performAndWait { try series.removeObject(volumes[0], forKey: "volumes") }
        try stack.context.performAndWait { () throws in
            stack.context.undo()
            #expect(try series.objects(forKey: "volumes") == [volumes[2], volumes[0], volumes[3], volumes[1]])
            stack.context.undo()
            #expect(try series.objects(forKey: "volumes") == Array(volumes.prefix(3)))
            #expect(try volumes[3].object(forKey: "series") == nil)
            #expect(!stack.context.hasChanges)
            stack.context.redo()
            stack.context.redo()
            #expect(try series.objects(forKey: "volumes") == [volumes[2], volumes[3], volumes[1]])
            #expect(try volumes[0].object(forKey: "series") == nil)
            #expect(try volumes[3].object(forKey: "series") === series)
        }
    }

    @Test func aNewChangeForgetsWhatCouldBeRedone() throws {
        let stack = try CatalogStack.undoable()
        let book = try stack.insertInBlock("Book", ["title": "Dune"])
        try stack.context.performAndWait { try book.setValue("Dune Messiah", forKey: "title") }
        try stack.context.performAndWait {
            stack.context.undo()
            #expect(stack.undoManager.canRedo)
            try book.setValue("Children of Dune", forKey: "title")
            #expect(!stack.undoManager.canRedo)
            stack.context.redo()
            #expect(try book.value(forKey: "title") == "Children of Dune")
        }
    }
}
