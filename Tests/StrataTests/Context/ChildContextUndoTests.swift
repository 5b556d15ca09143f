import Testing

@testable import Strata

/// A child context's save reaches its parent as one change the parent can undo and redo.
@Suite struct ChildContextUndoTests {
    @Test func theParentUndoesAndRedoesAChildsSaveAsOneGroup() throws {
        let stack = try CatalogStack()
        let parent = stack.context
        let (herbert, dune, messiah) = try parent.performAndWait {
            let herbert = try stack.insert("Author", ["name": "Herbert"])
            let dune = try stack.insert("Book", ["title": "Dune", "pages": 412])
            let messiah = try stack.insert("Book", ["title": "Messiah", "pages": 256])
            try herbert.setObjects([dune, messiah], forKey: "books")
            try parent.save()
            parent.undoManager = ContextUndoManager()
            return (herbert.objectID, dune.objectID, messiah.objectID)
        }
        let child = ManagedObjectContext(parent: parent, name: "child")
        try child.performAndWait {
            try child.insert("Book", ["title": "Children of Dune", "author": .objectID(herbert)])
            try child.object(with: dune).setValue("Dune (1965)", forKey: "title")
            try child.delete(child.object(with: messiah))
            try child.save()
        }
        try parent.performAndWait { () throws in
            #expect(parent.insertedObjects.count == 1)
            #expect(parent.undoManager?.canUndo == true)
            parent.undo()
            #expect(!parent.hasChanges)
            #expect(try parent.object(with: dune).text("title") == "Dune")
            #expect(try parent.object(with: herbert).memberTexts("books", "title") == ["Dune", "Messiah"])
            #expect(parent.undoManager?.canUndo == false)
            parent.redo()
            #expect(parent.insertedObjects.count == 1)
            #expect(parent.deletedObjects.map(\.objectID) == [messiah])
            #expect(
                try parent.object(with: herbert).memberTexts("books", "title") == ["Children of Dune", "Dune (1965)"])
            try parent.save()
        }
        let view = stack.makeContext(name: "store view")
        try view.performAndWait { () throws in
            #expect(try view.bookTitles() == ["Children of Dune", "Dune (1965)"])
        }
    }
}
