import Testing

@testable import Strata

/// A child context's save hands its inserts, updates and deletions to its parent, which keeps
/// them as its own unsaved changes until it saves them to the store.
@Suite struct ChildContextSaveTests {
    let stack: CatalogStack
    let herbert, dune, messiah, cover, sciFi, classic: ObjectID

    /// Herbert wrote Dune (tagged SciFi, with a blue cover) and Messiah; Classic tags nothing.
    init() throws {
        let stack = try CatalogStack()
        let context = stack.context
        let ids = try context.performAndWait {
            let herbert = try stack.insert("Author", ["name": "Herbert"])
            let dune = try stack.insert("Book", ["title": "Dune", "pages": 412])
            let messiah = try stack.insert("Book", ["title": "Messiah", "pages": 256])
            let cover = try stack.insert("Cover", ["color": "blue"])
            let sciFi = try stack.insert("Tag", ["label": "SciFi"])
            let classic = try stack.insert("Tag", ["label": "Classic"])
            try herbert.setObjects([dune, messiah], forKey: "books")
            try dune.setObject(cover, forKey: "cover")
            try dune.setObjects([sciFi], forKey: "tags")
            try context.save()
            return [herbert, dune, messiah, cover, sciFi, classic].map(\.objectID)
        }
        self.stack = stack
        (herbert, dune, messiah, cover, sciFi, classic) = (ids[0], ids[1], ids[2], ids[3], ids[4], ids[5])
    }

    /// A fresh context reading the store.
    func storeView() -> ManagedObjectContext { stack.makeContext(name: "store view") }

    @Test func insertsUpdatesAndDeletionsTravelUpAndTheParentSavesThem() throws {
        let parent = stack.context
        let child = ManagedObjectContext(parent: parent, name: "child")
        let newID = try child.performAndWait {
            let book = try child.insert("Book", ["title": "Children of Dune", "author": .objectID(herbert)])
            try child.object(with: dune).setValue("Dune (1965)", forKey: "title")
            try child.delete(child.object(with: messiah))
            try child.save()
            #expect(!child.hasChanges)
            #expect(book.objectID.isTemporary)
            return book.objectID
        }
        try parent.performAndWait { () throws in
            #expect(parent.insertedObjects.map(\.objectID) == [newID])
            #expect(Set(parent.updatedObjects.map(\.objectID)) == [dune, herbert])
            #expect(parent.deletedObjects.map(\.objectID) == [messiah])
            #expect(
                try parent.object(with: herbert).memberTexts("books", "title") == ["Children of Dune", "Dune (1965)"])
        }
        #expect(try stack.stored(dune)?["title"] == "Dune")
        try parent.performAndWait { try parent.save() }
        let view = storeView()
        try view.performAndWait { () throws in
            #expect(try view.bookTitles() == ["Children of Dune", "Dune (1965)"])
            #expect(
                try view.existingObject(with: herbert).memberTexts("books", "title") == [
                    "Children of Dune", "Dune (1965)",
                ])
        }
    }

    @Test func aFaultWaitingForMemberChangesTakesThePermanentIDsOfTheParentsSave() throws {
        let parent = stack.context
        let child = ManagedObjectContext(parent: parent, name: "child")
        try child.performAndWait {
            // Tagging Dune from the tag's side leaves the child's Dune a fault whose new member
            // waits for its members to load.
            let tag = try child.insert("Tag", ["label": "Desert"])
            try tag.setObjects([child.object(with: dune)], forKey: "books")
            #expect(child.object(with: dune).faulted)
            #expect(!child.object(with: dune).pendingMembers.isEmpty)
        }
        let saved = try parent.performAndWait {
            let series = try stack.insert("Series", ["name": "Chronicles"])
            try parent.save()
            return series.objectID
        }
        #expect(!saved.isTemporary)
        try child.performAndWait {
            try child.save()
            #expect(Set(try child.object(with: dune).objects(forKey: "tags").map(\.objectID)).count == 2)
        }
    }

    @Test func theParentAnnouncesThePushAsOneChangeAndTheChildAnnouncesItsSave() throws {
        let parent = stack.context
        let child = ManagedObjectContext(parent: parent, name: "child")
        let parentChanges = PostedNotifications(.objectsDidChange, by: parent)
        let childSaves = PostedNotifications(.didSave, by: child)
        try child.performAndWait {
            try child.object(with: dune).setValue(500, forKey: "pages")
            try child.delete(child.object(with: messiah))
            try child.insertNewObject(forEntityName: "Tag").setValue("New", forKey: "label")
            try child.save()
        }
        let pushed = parentChanges.all
        #expect(pushed.count == 1)
        #expect(pushed.first?.insertedObjectIDs.count == 1)
        #expect(pushed.first?.updatedObjectIDs.contains(dune) == true)
        #expect(pushed.first?.deletedObjectIDs == [messiah])
        let saves = childSaves.all
        #expect(saves.count == 1)
        #expect(saves.first?.updatedObjectIDs.contains(dune) == true)
        #expect(saves.first?.deletedObjectIDs == [messiah])
    }

    @Test func toOneToManyAndManyToManyChangesArriveOnBothSides() throws {
        let parent = stack.context
        let child = ManagedObjectContext(parent: parent, name: "child")
        try child.performAndWait {
            let book = child.object(with: dune)
            let anonymous = try child.insert("Author", ["name": "Anonymous"])
            try book.setObject(anonymous, forKey: "author")
            try book.setObjects([child.object(with: classic)], forKey: "tags")
            try book.setObject(child.insert("Cover", ["color": "green"]), forKey: "cover")
            try child.save()
        }
        func check(_ context: ManagedObjectContext) throws {
            let book = context.object(with: dune)
            #expect(try book.object(forKey: "author")?.text("name") == "Anonymous")
            #expect(try book.object(forKey: "author")?.memberTexts("books", "title") == ["Dune"])
            #expect(try context.object(with: herbert).memberTexts("books", "title") == ["Messiah"])
            #expect(try book.memberTexts("tags", "label") == ["Classic"])
            #expect(try context.object(with: classic).memberTexts("books", "title") == ["Dune"])
            #expect(try context.object(with: sciFi).objects(forKey: "books").isEmpty)
            #expect(try book.object(forKey: "cover")?.text("color") == "green")
            #expect(try context.object(with: cover).object(forKey: "book") == nil)
        }
        try parent.performAndWait {
            try check(parent)
            try parent.save()
        }
        let view = storeView()
        try view.performAndWait { try check(view) }
    }

    @Test func aCascadeDeleteInTheChildReachesTheParent() throws {
        let parent = stack.context
        let child = ManagedObjectContext(parent: parent, name: "child")
        try child.performAndWait {
            try child.delete(child.object(with: dune))
            #expect(child.object(with: cover).isDeleted)
            try child.save()
        }
        try parent.performAndWait {
            #expect(Set(parent.deletedObjects.map(\.objectID)) == [dune, cover])
            #expect(try parent.object(with: herbert).memberTexts("books", "title") == ["Messiah"])
            #expect(try parent.object(with: sciFi).objects(forKey: "books").isEmpty)
            try parent.save()
        }
        #expect(try stack.stored(dune) == nil)
        #expect(try stack.stored(cover) == nil)
        let view = storeView()
        try view.performAndWait { () throws in
            #expect(try view.count("Cover") == 0)
            #expect(try view.existingObject(with: sciFi).objects(forKey: "books").isEmpty)
        }
    }

    @Test func objectsTheParentInsertedCanBeChangedAndDeletedInTheChild() throws {
        let parent = stack.context
        let (draft, scrap) = try parent.performAndWait {
            (
                try stack.insert("Book", ["title": "Draft"]).objectID,
                try stack.insert("Book", ["title": "Scrap"]).objectID
            )
        }
        let child = ManagedObjectContext(parent: parent, name: "child")
        try child.performAndWait {
            try child.object(with: draft).setValue("Final", forKey: "title")
            try child.delete(child.object(with: scrap))
            try child.save()
        }
        try parent.performAndWait {
            #expect(parent.insertedObjects.map(\.objectID) == [draft])
            #expect(parent.registeredObject(for: scrap) == nil)
            #expect(try parent.object(with: draft).text("title") == "Final")
            try parent.save()
        }
        let view = storeView()
        try view.performAndWait { () throws in #expect(try view.bookTitles() == ["Dune", "Final", "Messiah"]) }
    }

    @Test func rollbackAndResetInTheChildLeaveTheParentAlone() throws {
        let parent = stack.context
        try parent.performAndWait { try parent.object(with: dune).setValue("Parent's Dune", forKey: "title") }
        let child = ManagedObjectContext(parent: parent, name: "child")
        try child.performAndWait {
            let book = child.object(with: dune)
            try book.setValue("Child's Dune", forKey: "title")
            try child.insertNewObject(forEntityName: "Tag").setValue("Extra", forKey: "label")
            child.rollback()
            #expect(!child.hasChanges)
            #expect(try book.text("title") == "Parent's Dune")
            try book.setValue("Child's Dune", forKey: "title")
            child.reset()
            #expect(child.registeredObjects.isEmpty)
            #expect(try child.object(with: dune).text("title") == "Parent's Dune")
            #expect(try child.count("Tag") == 2)
        }
        try parent.performAndWait { () throws in
            #expect(Set(parent.updatedObjects.map(\.objectID)) == [dune])
            #expect(parent.insertedObjects.isEmpty)
            #expect(try parent.object(with: dune).text("title") == "Parent's Dune")
        }
    }

    @Test func refreshInTheChildRereadsTheParent() throws {
        let parent = stack.context
        let child = ManagedObjectContext(parent: parent, name: "child")
        let book = try child.performAndWait { () throws in
            let book = child.object(with: dune)
            #expect(try book.text("title") == "Dune")
            return book
        }
        try parent.performAndWait { try parent.object(with: dune).setValue("Dune, revised", forKey: "title") }
        try child.performAndWait {
            #expect(try book.text("title") == "Dune")
            try book.setValue(999, forKey: "pages")
            try child.refresh(book, mergeChanges: true)
            #expect(try book.text("title") == "Dune, revised")
            #expect(try book.value(forKey: "pages") == .integer32(999))
            try child.refresh(book, mergeChanges: false)
            #expect(try book.value(forKey: "pages") == .integer32(412))
            #expect(!child.hasChanges)
        }
    }
}
