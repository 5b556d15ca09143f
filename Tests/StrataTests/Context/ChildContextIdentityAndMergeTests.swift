import Testing

@testable import Strata

/// Child contexts learn the permanent IDs of their objects when the root saves, and merge their
/// parent's and siblings' saves when they ask to.
@Suite struct ChildContextIdentityAndMergeTests {
    let stack: CatalogStack
    let dune: ObjectID

    init() throws { (stack, dune) = try CatalogStack.withDune() }

    @Test func descendantsLearnPermanentIDsWhenTheRootSaves() async throws {
        let root = stack.context
        let child = ManagedObjectContext(parent: root, name: "child")
        let grandchild = ManagedObjectContext(parent: child, name: "grandchild")
        let (book, author) = try grandchild.performAndWait {
            let author = try grandchild.insert("Author", ["name": "Herbert"])
            let book = try grandchild.insert(
                "Book", ["title": "Children of Dune", "author": .objectID(author.objectID)])
            try grandchild.save()
            return (book, author)
        }
        let temporaryID = book.objectID
        let childBook = try child.performAndWait {
            let childBook = try child.existingObject(with: temporaryID)
            try child.save()
            return childBook
        }
        let permanentID = try root.performAndWait {
            try root.save()
            return try root.only("Book", "title", "Children of Dune").objectID
        }
        #expect(!permanentID.isTemporary)
        await grandchild.perform {}
        try grandchild.performAndWait {
            #expect(book.objectID == permanentID)
            #expect(grandchild.object(with: permanentID) === book)
            #expect(grandchild.registeredObject(for: temporaryID) == nil)
            #expect(try grandchild.only("Book", "title", "Children of Dune") === book)
            #expect(try book.object(forKey: "author") === author)
            #expect(!author.objectID.isTemporary)
            #expect(try author.objects(forKey: "books") == [book])
            try book.setValue("Children of Dune (1976)", forKey: "title")
            try grandchild.save()
        }
        try child.performAndWait {
            #expect(childBook.objectID == permanentID)
            #expect(child.object(with: permanentID) === childBook)
            try child.save()
        }
        try root.performAndWait { try root.save() }
        #expect(try stack.stored(permanentID)?["title"] == "Children of Dune (1976)")
    }

    @Test func aChildSavingBeforeItLearnsThePermanentIDsReachesTheSavedObjects() throws {
        let root = stack.context
        let (draftID, authorID, scrapID) = try root.performAndWait {
            (
                try root.insert("Book", ["title": "Draft"]).objectID,
                try root.insert("Author", ["name": "Anon"]).objectID,
                try root.insert("Book", ["title": "Scrap"]).objectID
            )
        }
        let child = ManagedObjectContext(parent: root, name: "child")
        let permanentID = try child.performAndWait {
            let draft = child.object(with: draftID)
            try draft.setValue("Final", forKey: "title")
            try draft.setObject(child.object(with: authorID), forKey: "author")
            try child.delete(child.object(with: scrapID))
            try root.performAndWait { try root.save() }
            try child.save()
            #expect(draft.objectID == draftID)
            return try root.performAndWait { try root.only("Book", "title", "Final").objectID }
        }
        #expect(!permanentID.isTemporary)
        try child.performAndWait { () throws in
            #expect(child.object(with: permanentID).objectID == permanentID)
            #expect(try child.object(with: permanentID).text("title") == "Final")
        }
        try root.performAndWait { () throws in
            #expect(root.updatedObjects.map(\.objectID).contains(permanentID))
            try root.save()
        }
        #expect(try stack.stored(permanentID)?["title"] == "Final")
        let view = stack.makeContext(name: "store view")
        try view.performAndWait { () throws in
            #expect(try view.bookTitles() == ["Dune", "Final"])
            #expect(try view.existingObject(with: permanentID).object(forKey: "author")?.text("name") == "Anon")
            #expect(try view.only("Author", "name", "Anon").memberTexts("books", "title") == ["Final"])
        }
    }

    /// A child of the root that has read Dune, merging its parent's saves or not.
    func reader(merging: Bool, of parent: ManagedObjectContext? = nil) throws -> ManagedObjectContext {
        let reader = ManagedObjectContext(parent: parent ?? stack.context, name: merging ? "merging" : "still")
        try reader.performAndWait { () throws in
            reader.automaticallyMergesChangesFromParent = merging
            #expect(try reader.object(with: dune).text("title") == "Dune")
        }
        return reader
    }

    @Test func aChildMergesItsParentsSaves() async throws {
        let merging = try reader(merging: true)
        let still = try reader(merging: false)
        let changes = PostedNotifications(.objectsDidChange, by: merging)
        let root = stack.context
        try root.performAndWait {
            try root.object(with: dune).setValue("Dune (1965)", forKey: "title")
            try root.save()
        }
        await merging.perform {}
        try merging.performAndWait { () throws in #expect(try merging.object(with: dune).text("title") == "Dune (1965)")
        }
        #expect(changes.all.map(\.refreshedObjectIDs) == [[dune]])
        try still.performAndWait { () throws in #expect(try still.object(with: dune).text("title") == "Dune") }
    }

    @Test func aChildMergesItsSiblingsSavesIntoTheParent() async throws {
        let merging = try reader(merging: true)
        let sibling = ManagedObjectContext(parent: stack.context, name: "sibling")
        try sibling.performAndWait {
            try sibling.object(with: dune).setValue("Sibling's Dune", forKey: "title")
            try sibling.save()
        }
        await merging.perform {}
        try merging.performAndWait {
            let book = merging.object(with: dune)
            #expect(try book.text("title") == "Sibling's Dune")
            try book.setValue(500, forKey: "pages")
            try merging.save()
        }
        try stack.context.performAndWait { () throws in
            let book = stack.context.object(with: dune)
            #expect(try book.text("title") == "Sibling's Dune")
            #expect(try book.value(forKey: "pages") == .integer32(500))
        }
    }

    @Test func aDeletionSavedIntoTheParentIsMerged() async throws {
        let merging = try reader(merging: true)
        let sibling = ManagedObjectContext(parent: stack.context, name: "sibling")
        try sibling.performAndWait {
            try sibling.delete(sibling.object(with: dune))
            try sibling.save()
        }
        await merging.perform {}
        merging.performAndWait {
            #expect(merging.registeredObject(for: dune) == nil)
        }
    }

    @Test func aGrandchildMergesItsParentsSaves() async throws {
        let child = ManagedObjectContext(parent: stack.context, name: "child")
        let grandchild = try reader(merging: true, of: child)
        try child.performAndWait {
            try child.object(with: dune).setValue("Child's Dune", forKey: "title")
            try child.save()
        }
        await grandchild.perform {}
        try grandchild.performAndWait { () throws in
            #expect(try grandchild.object(with: dune).text("title") == "Child's Dune")
        }
    }
}
