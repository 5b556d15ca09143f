import Testing

@testable import Strata

/// A child context's fetches and faults see its parent's state, unsaved changes included.
@Suite struct ChildContextFetchTests {
    let stack: CatalogStack
    let saved: [ObjectID]

    /// The store holds Alpha (100 pages), Beta (200) and Gamma (300).
    init() throws {
        stack = try CatalogStack()
        saved = try stack.saved(
            "Book",
            [["title": "Alpha", "pages": 100], ["title": "Beta", "pages": 200], ["title": "Gamma", "pages": 300]])
    }

    /// The parent inserts Delta (400) and Aardvark (50), deletes Beta and gives Alpha 350 pages.
    func changeParent() throws {
        let parent = stack.context
        try parent.performAndWait {
            try stack.insert("Book", ["title": "Delta", "pages": 400])
            try stack.insert("Book", ["title": "Aardvark", "pages": 50])
            try parent.delete(parent.object(with: saved[1]))
            try parent.object(with: saved[0]).setValue(350, forKey: "pages")
        }
    }

    @Test func aFetchSeesThePendingInsertsDeletionsAndUpdatesOfTheParent() throws {
        try changeParent()
        let child = ManagedObjectContext(parent: stack.context, name: "child")
        try child.performAndWait { () throws in
            #expect(try child.bookTitles() == ["Aardvark", "Alpha", "Delta", "Gamma"])
            #expect(try child.bookTitles(where: "pages > 250", sortedBy: "pages") == ["Gamma", "Alpha", "Delta"])
            #expect(
                try child.bookTitles(sortedBy: "pages", ascending: false, offset: 1, limit: 2) == ["Alpha", "Gamma"])
            #expect(try child.count("Book") == 4)
            #expect(try child.count("Book", where: "pages < 200") == 1)
            #expect(try child.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Book")).count == 4)
        }
    }

    @Test func aFetchJudgesTheChildsOwnChangesOnTopOfTheParents() throws {
        try changeParent()
        let child = ManagedObjectContext(parent: stack.context, name: "child")
        try child.performAndWait {
            try child.insertNewObject(forEntityName: "Book").setValue("Epsilon", forKey: "title")
            try child.delete(child.only("Book", "title", "Delta"))
            try child.only("Book", "title", "Gamma").setValue(10, forKey: "pages")
            #expect(try child.bookTitles() == ["Aardvark", "Alpha", "Epsilon", "Gamma"])
            #expect(try child.bookTitles(where: "pages >= 50", sortedBy: "pages") == ["Aardvark", "Alpha"])
            #expect(try child.bookTitles(offset: 1, limit: 2) == ["Alpha", "Epsilon"])
            #expect(try child.count("Book", where: "pages < 60") == 2)
        }
    }

    @Test func batchedFetchesAndDictionariesSeeTheParentsValues() throws {
        try changeParent()
        let child = ManagedObjectContext(parent: stack.context, name: "child")
        try child.performAndWait { () throws in
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.sortDescriptors = [FetchSortDescriptor("pages")]
            request.fetchBatchSize = 2
            #expect(
                try child.fetch(request).map { try $0.value(forKey: "pages") }
                    == [50, 300, 350, 400].map(AttributeValue.integer32))
            request.propertiesToFetch = ["title"]
            #expect(
                try child.fetchDictionaries(request).map { $0["title"] } == ["Aardvark", "Gamma", "Alpha", "Delta"])
        }
    }

    @Test func faultsTakeTheParentsUnsavedValues() throws {
        let parent = stack.context
        try parent.performAndWait { try parent.object(with: saved[2]).setValue("Gamma, revised", forKey: "title") }
        let child = ManagedObjectContext(parent: parent, name: "child")
        try child.performAndWait { () throws in
            let book = child.object(with: saved[2])
            #expect(book.isFault)
            #expect(try book.text("title") == "Gamma, revised")
            #expect(!book.hasChanges)
            #expect(try child.existingObject(with: saved[1]).text("title") == "Beta")
        }
        try parent.performAndWait { try parent.delete(parent.object(with: saved[1])) }
        let later = ManagedObjectContext(parent: parent, name: "later")
        try later.performAndWait {
            #expect(throws: ContextError.self) { try later.existingObject(with: saved[1]) }
            let gone = later.object(with: saved[1])
            _ = try gone.value(forKey: "title")
            #expect(gone.isDeleted)
        }
    }

    @Test func anObjectTheParentInsertedLoadsByItsTemporaryID() throws {
        let parent = stack.context
        let (bookID, authorID) = try parent.performAndWait {
            let author = try stack.insert("Author", ["name": "Herbert"])
            let book = try stack.insert("Book", ["title": "Dune"])
            try book.setObject(author, forKey: "author")
            return (book.objectID, author.objectID)
        }
        #expect(bookID.isTemporary)
        let child = ManagedObjectContext(parent: parent, name: "child")
        try child.performAndWait { () throws in
            let book = child.object(with: bookID)
            #expect(try book.text("title") == "Dune")
            #expect(try book.object(forKey: "author")?.objectID == authorID)
            #expect(try child.existingObject(with: authorID).memberTexts("books", "title") == ["Dune"])
            #expect(!child.hasChanges)
            #expect(throws: ContextError.self) { try child.existingObject(with: .temporary(entityName: "Book")) }
        }
    }

    @Test func aGrandchildSeesItsParentsAndItsGrandparentsChanges() throws {
        try changeParent()
        let child = ManagedObjectContext(parent: stack.context, name: "child")
        try child.performAndWait { try child.only("Book", "title", "Gamma").setValue("Gamma II", forKey: "title") }
        let grandchild = ManagedObjectContext(parent: child, name: "grandchild")
        try grandchild.performAndWait { () throws in
            #expect(try grandchild.bookTitles() == ["Aardvark", "Alpha", "Delta", "Gamma II"])
            #expect(
                try grandchild.bookTitles(where: "pages > 250", sortedBy: "pages") == ["Gamma II", "Alpha", "Delta"])
            #expect(grandchild.parent === child)
            #expect(grandchild.coordinator === stack.coordinator)
        }
    }
}
