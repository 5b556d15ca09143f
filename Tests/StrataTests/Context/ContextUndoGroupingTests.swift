import Foundation
import Testing

@testable import Strata

/// How changes fall into undo groups: one per perform block, explicit and nested groups, the
/// number of groups kept, and a context without an undo manager.
@Suite struct ContextUndoGroupingTests {
    @Test func theChangesOfOnePerformBlockAreOneGroup() throws {
        let stack = try CatalogStack.undoable()
        let (author, book) = try stack.context.performAndWait {
            let author = try stack.insert("Author", ["name": "Herbert"])
            let book = try stack.context.performAndWait {
                let book = try stack.insert("Book", ["title": "Dune"])
                try book.setObject(author, forKey: "author")
                return book
            }
            try author.setValue("Frank Herbert", forKey: "name")
            return (author, book)
        }
        stack.context.performAndWait {
            #expect(stack.undoManager.canUndo)
            stack.context.undo()
            #expect(!stack.undoManager.canUndo)
            #expect(!stack.context.hasChanges)
            #expect(author.isDeleted && book.isDeleted)
        }
    }

    @Test func eachPerformBlockIsAGroupOfItsOwn() async throws {
        let stack = try CatalogStack.undoable()
        let id = try stack.saved("Book", [["title": "Dune"]])[0]
        for title in ["Dune Messiah", "Children of Dune"] {
            try await stack.context.perform {
                try stack.context.object(with: id).setValue(.string(title), forKey: "title")
            }
        }
        let titles = try await stack.context.perform {
            stack.context.undo()
            let afterOne = try stack.context.object(with: id).value(forKey: "title")
            stack.context.undo()
            return [afterOne, try stack.context.object(with: id).value(forKey: "title")]
        }
        #expect(titles == ["Dune Messiah", "Dune"])
    }

    @Test func undoInTheBlockThatMadeTheChangesUndoesThem() throws {
        let stack = try CatalogStack.undoable()
        let book = try stack.insertInBlock("Book", ["title": "Dune"])
        try stack.context.performAndWait {
            try book.setValue("Dune Messiah", forKey: "title")
            stack.context.undo()
            #expect(try book.value(forKey: "title") == "Dune")
            #expect(stack.undoManager.canUndo && stack.undoManager.canRedo)
        }
    }

    @Test func explicitGroupsSplitOneBlockWithoutGroupingByEvent() throws {
        let stack = try CatalogStack.undoable()
        let book = try stack.insertInBlock("Book", ["title": "Dune"])
        try stack.context.performAndWait {
            let manager = stack.undoManager
            manager.groupsByEvent = false
            for title in ["Dune Messiah", "Children of Dune"] {
                manager.beginUndoGrouping()
                try book.setValue(.string(title), forKey: "title")
                manager.endUndoGrouping()
            }
            #expect(manager.groupingLevel == 0)
            manager.undo()
            #expect(try book.value(forKey: "title") == "Dune Messiah")
            manager.undo()
            #expect(try book.value(forKey: "title") == "Dune")
            manager.undo()
            #expect(!book.isInserted)
        }
    }

    @Test func nestedGroupsAreUndoneWithTheGroupAroundThem() throws {
        let stack = try CatalogStack.undoable()
        let book = try stack.insertInBlock("Book", ["title": "Dune", "pages": 412])
        try stack.context.performAndWait {
            let manager = stack.undoManager
            manager.groupsByEvent = false
            manager.beginUndoGrouping()
            try book.setValue("Dune Messiah", forKey: "title")
            manager.beginUndoGrouping()
            #expect(manager.groupingLevel == 2)
            try book.setValue(256, forKey: "pages")
            manager.endUndoGrouping()
            let cover = try stack.insert("Cover", ["color": "ochre"])
            try book.setObject(cover, forKey: "cover")
            manager.endUndoGrouping()
            manager.undo()
            #expect(try book.value(forKey: "title") == "Dune")
            #expect(try book.value(forKey: "pages") == 412)
            #expect(try book.object(forKey: "cover") == nil)
            #expect(!cover.isInserted)
            manager.redo()
            #expect(try book.value(forKey: "pages") == 256)
            #expect(try book.object(forKey: "cover") === cover)
        }
    }

    @Test func aGroupOpenedInABlockNestsInTheBlocksGroup() throws {
        let stack = try CatalogStack.undoable()
        let book = try stack.insertInBlock("Book", ["title": "Dune"])
        try stack.context.performAndWait {
            try book.setValue("Dune Messiah", forKey: "title")
            stack.undoManager.beginUndoGrouping()
            try book.setValue(256, forKey: "pages")
            stack.undoManager.endUndoGrouping()
            #expect(stack.undoManager.groupingLevel == 1)
        }
        try stack.context.performAndWait { () throws in
            stack.context.undo()
            #expect(try book.value(forKey: "title") == "Dune")
            #expect(try book.value(forKey: "pages") == .null)
        }
    }

    @Test func withoutGroupingByEventEachChangeOutsideAGroupIsOne() throws {
        let stack = try CatalogStack.undoable()
        try stack.context.performAndWait {
            stack.undoManager.groupsByEvent = false
            let book = try stack.insert("Book", ["title": "Dune"])
            stack.undoManager.undo()
            #expect(try book.value(forKey: "title") == .null)
            #expect(book.isInserted)
        }
    }

    @Test func onlyTheLatestLevelsOfUndoAreKept() throws {
        let stack = try CatalogStack.undoable()
        stack.context.performAndWait { stack.undoManager.levelsOfUndo = 2 }
        let book = try stack.insertInBlock("Book", ["title": "Dune"])
        for title in ["Dune Messiah", "Children of Dune", "God Emperor"] {
            try stack.context.performAndWait { try book.setValue(.string(title), forKey: "title") }
        }
        try stack.context.performAndWait { () throws in
            stack.context.undo()
            stack.context.undo()
            #expect(!stack.undoManager.canUndo)
            #expect(try book.value(forKey: "title") == "Dune Messiah")
            #expect(book.isInserted)
            stack.undoManager.levelsOfUndo = 1
            stack.context.redo()
            #expect(try book.value(forKey: "title") == "Children of Dune")
            #expect(!stack.undoManager.canRedo)
        }
    }

    @Test func removingAllActionsLeavesNothingToUndoOrRedo() throws {
        let stack = try CatalogStack.undoable()
        let book = try stack.insertInBlock("Book", ["title": "Dune"])
        try stack.context.performAndWait { try book.setValue("Dune Messiah", forKey: "title") }
        try stack.context.performAndWait {
            stack.context.undo()
            try book.setValue(256, forKey: "pages")
            stack.undoManager.removeAllActions()
            #expect(!stack.undoManager.canUndo && !stack.undoManager.canRedo)
            stack.context.undo()
            #expect(try book.value(forKey: "pages") == 256)
            #expect(book.isInserted)
        }
    }

    @Test func actionNamesFollowTheirGroups() throws {
        let stack = try CatalogStack.undoable()
        let book = try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            stack.undoManager.setActionName("Add Book")
            return book
        }
        try stack.context.performAndWait { try book.setValue("Dune Messiah", forKey: "title") }
        stack.context.performAndWait {
            stack.undoManager.setActionName("Rename Book")
            #expect(stack.undoManager.undoActionName == "Rename Book")
            stack.context.undo()
            #expect(stack.undoManager.undoActionName == "Add Book")
            #expect(stack.undoManager.redoActionName == "Rename Book")
            #expect(!stack.undoManager.isUndoing && !stack.undoManager.isRedoing)
        }
    }

    /// A book that notes whether its context's undo manager was undoing when its values loaded.
    final class LoadWatchingBook: ManagedObject {
        override class var entityName: String { "Book" }
        var loadedWhileUndoing: Bool?

        override func awakeFromFetch() {
            loadedWhileUndoing = managedObjectContext?.undoManager?.isUndoing
        }
    }

    @Test func undoLoadsAFaultItChangesAndSaysItIsUndoing() throws {
        let stack = try CatalogStack.undoable()
        stack.coordinator.register(LoadWatchingBook.self)
        let id = try stack.saved("Book", [["title": "Dune"]])[0]
        let book = try stack.context.performAndWait { () throws in
            let book = try #require(stack.context.object(with: id) as? LoadWatchingBook)
            try book.setValue("Dune Messiah", forKey: "title")
            try stack.context.save()
            return book
        }
        try stack.context.performAndWait { () throws in
            try stack.context.refreshAllObjects()
            #expect(book.isFault)
            stack.context.undo()
            #expect(book.loadedWhileUndoing == true)
            #expect(!stack.undoManager.isUndoing)
            #expect(try book.value(forKey: "title") == "Dune")
            #expect(book.isUpdated)
        }
    }

    @Test func aContextWithoutAnUndoManagerRecordsNothing() throws {
        let stack = try CatalogStack()
        let book = try stack.context.performAndWait {
            #expect(stack.context.undoManager == nil)
            return try stack.insert("Book", ["title": "Dune"])
        }
        try stack.context.performAndWait {
            stack.context.undo()
            #expect(book.isInserted)
            stack.context.undoManager = ContextUndoManager()
            stack.context.undo()
            #expect(try book.value(forKey: "title") == "Dune")
            try book.setValue("Dune Messiah", forKey: "title")
            stack.context.undo()
            #expect(try book.value(forKey: "title") == "Dune")
            #expect(book.isInserted)
        }
    }
}
