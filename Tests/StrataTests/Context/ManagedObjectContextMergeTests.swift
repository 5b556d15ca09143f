import Foundation
import Testing

@testable import Strata

/// Applying one context's did-save to another with mergeChanges(fromContextDidSave:).
@Suite struct ManagedObjectContextMergeTests {
    /// Runs `body` in a new context of `stack` and returns the did-save its save posted.
    private func didSave(
        in stack: CatalogStack, _ body: (ManagedObjectContext) throws -> Void
    ) throws -> ContextNotification {
        let editor = stack.makeContext(name: "editor")
        return try editor.performAndWait {
            var posted: [ContextNotification] = []
            editor.addObserver(for: .didSave) { posted.append($0.notification) }
            try body(editor)
            try editor.save()
            return try #require(posted.first)
        }
    }

    private func ids(_ stack: CatalogStack) throws -> (dune: ObjectID, emma: ObjectID, fiasco: ObjectID) {
        let ids = try stack.saved(
            "Book",
            [
                ["title": "Dune", "pages": .integer32(412)], ["title": "Emma", "pages": .integer32(300)],
                ["title": "Fiasco", "pages": .integer32(200)],
            ])
        return (ids[0], ids[1], ids[2])
    }

    @Test func updatedObjectsAreRefreshedWithLocalChangesKeptOnTop() throws {
        let stack = try CatalogStack()
        let ids = try ids(stack)
        let context = stack.context
        let dune = try context.performAndWait {
            let dune = context.object(with: ids.dune)
            try dune.setValue(.integer32(500), forKey: "pages")
            return dune
        }
        let notification = try didSave(in: stack) { editor in
            try editor.object(with: ids.dune).setValue("Dune Messiah", forKey: "title")
        }
        #expect(notification.updatedObjectIDs == [ids.dune])
        try context.performAndWait {
            #expect(try dune.value(forKey: "title") == "Dune")
            try context.mergeChanges(fromContextDidSave: notification)
            #expect(try dune.value(forKey: "title") == "Dune Messiah")
            #expect(try dune.value(forKey: "pages") == .integer32(500))
            #expect(dune.isUpdated)
            #expect(dune.changedValues() == ["pages": .integer32(500)])
            #expect(dune.committedValues(forKeys: ["title"]) == ["title": "Dune Messiah"])
            try context.save()
        }
        let stored = try #require(try stack.stored(ids.dune))
        #expect(stored["title"] == "Dune Messiah")
        #expect(stored["pages"] == .integer32(500))
    }

    @Test func withoutMergingTheSameSaveConflicts() throws {
        let stack = try CatalogStack()
        let ids = try ids(stack)
        try stack.context.performAndWait {
            try stack.context.object(with: ids.dune).setValue(.integer32(500), forKey: "pages")
        }
        _ = try didSave(in: stack) { editor in
            try editor.object(with: ids.dune).setValue("Dune Messiah", forKey: "title")
        }
        try stack.context.performAndWait {
            let error = try #require(throws: ContextError.self) { try stack.context.save() }
            #expect(error.code == .mergeConflict)
            #expect(error.conflicts.map(\.objectID) == [ids.dune])
        }
    }

    @Test func aFaultDropsTheSnapshotItWasFetchedWith() throws {
        let stack = try CatalogStack()
        let ids = try ids(stack)
        let context = stack.context
        let dune = try context.performAndWait {
            try #require(
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")).first {
                    $0.objectID == ids.dune
                })
        }
        let notification = try didSave(in: stack) { editor in
            try editor.object(with: ids.dune).setValue("Dune Messiah", forKey: "title")
        }
        try context.performAndWait {
            #expect(dune.isFault)
            try context.mergeChanges(fromContextDidSave: notification)
            #expect(try dune.value(forKey: "title") == "Dune Messiah")
        }
    }

    @Test func deletedObjectsBecomeDeletedAndLeaveTheContext() throws {
        let stack = try CatalogStack()
        let ids = try ids(stack)
        let context = stack.context
        let (emma, fiasco) = try context.performAndWait {
            let emma = context.object(with: ids.emma)
            try emma.setValue(.integer32(1), forKey: "pages")
            let fiasco = context.object(with: ids.fiasco)
            _ = try fiasco.value(forKey: "title")
            return (emma, fiasco)
        }
        let notification = try didSave(in: stack) { editor in
            try editor.delete(editor.object(with: ids.emma))
            try editor.delete(editor.object(with: ids.fiasco))
        }
        #expect(notification.deletedObjectIDs == [ids.emma, ids.fiasco])
        try context.performAndWait {
            try context.mergeChanges(fromContextDidSave: notification)
            for object in [emma, fiasco] {
                #expect(object.isDeleted)
                #expect(object.managedObjectContext == nil)
                #expect(context.registeredObject(for: object.objectID) == nil)
            }
            #expect(try emma.value(forKey: "title") == .null)
            #expect(!context.hasChanges)
            try context.save()
            #expect(try context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Book")) == [ids.dune])
        }
    }

    @Test func unrelatedPendingChangesAreLeftIntact() throws {
        let stack = try CatalogStack()
        let ids = try ids(stack)
        let context = stack.context
        let (dune, fiasco, tag) = try context.performAndWait {
            let dune = context.object(with: ids.dune)
            _ = try dune.value(forKey: "title")
            _ = try context.object(with: ids.emma).value(forKey: "title")
            let fiasco = context.object(with: ids.fiasco)
            try fiasco.setValue("Fiasco, revised", forKey: "title")
            let tag = try stack.insert("Tag", ["label": "classic"])
            try fiasco.addObject(tag, forKey: "tags")
            return (dune, fiasco, tag)
        }
        let notification = try didSave(in: stack) { editor in
            try editor.object(with: ids.dune).setValue("Dune Messiah", forKey: "title")
            try editor.delete(editor.object(with: ids.emma))
        }
        try context.performAndWait {
            try context.mergeChanges(fromContextDidSave: notification)
            #expect(try dune.value(forKey: "title") == "Dune Messiah")
            #expect(context.registeredObject(for: ids.emma) == nil)
            #expect(fiasco.isUpdated && tag.isInserted)
            #expect(context.updatedObjects == [fiasco])
            #expect(context.insertedObjects == [tag])
            #expect(try fiasco.value(forKey: "title") == "Fiasco, revised")
            #expect(try fiasco.objects(forKey: "tags") == [tag])
            try context.save()
        }
        #expect(try stack.stored(ids.fiasco)?["title"] == "Fiasco, revised")
        #expect(try stack.store.relatedObjectIDs(of: ids.fiasco, relationship: "tags").count == 1)
        #expect(try stack.stored(ids.dune)?["title"] == "Dune Messiah")
        #expect(try stack.stored(ids.emma) == nil)
    }

    @Test func aChangedMembershipIsReloaded() throws {
        let stack = try CatalogStack()
        let ids = try ids(stack)
        let authorID = try stack.saved("Author", [["name": "Ada"]])[0]
        _ = try didSave(in: stack) { editor in
            try editor.object(with: authorID).setObjects(
                [editor.object(with: ids.dune), editor.object(with: ids.emma)], forKey: "books")
        }
        let context = stack.context
        let ada = try context.performAndWait { () throws -> ManagedObject in
            let ada = context.object(with: authorID)
            #expect(try ada.objects(forKey: "books").count == 2)
            return ada
        }
        let notification = try didSave(in: stack) { editor in
            try editor.object(with: ids.dune).setObject(nil, forKey: "author")
            try editor.object(with: ids.fiasco).setObject(editor.object(with: authorID), forKey: "author")
        }
        #expect(notification.updatedObjectIDs.contains(authorID))
        try context.performAndWait {
            try context.mergeChanges(fromContextDidSave: notification)
            #expect(Set(try ada.objects(forKey: "books").map(\.objectID)) == [ids.emma, ids.fiasco])
            #expect(!ada.hasChanges)
        }
    }

    @Test func mergingPostsObjectsDidChange() throws {
        let stack = try CatalogStack()
        let ids = try ids(stack)
        let context = stack.context
        var posted: [ContextChanges] = []
        let (dune, emma) = try context.performAndWait {
            context.addObserver(for: .objectsDidChange) { posted.append($0) }
            let dune = context.object(with: ids.dune)
            _ = try dune.value(forKey: "title")
            return (dune, context.object(with: ids.emma))
        }
        let notification = try didSave(in: stack) { editor in
            try editor.object(with: ids.dune).setValue("Dune Messiah", forKey: "title")
            try editor.delete(editor.object(with: ids.emma))
        }
        try context.performAndWait { try context.mergeChanges(fromContextDidSave: notification) }
        #expect(posted.count == 1)
        let changes = try #require(posted.first)
        #expect(changes.refreshedObjects == [dune])
        #expect(changes.deletedObjects == [emma])
        #expect(changes.notification.deletedObjectIDs == [ids.emma])
    }

    @Test func aDidSaveAwaitedFromAStreamMergesIntoAnotherContext() async throws {
        let stack = try CatalogStack()
        let ids = try ids(stack)
        let reader = stack.context
        try await reader.perform { _ = try reader.object(with: ids.dune).value(forKey: "title") }
        var editor: ManagedObjectContext? = stack.makeContext(name: "editor")
        let stream = try #require(editor).notifications(of: [.didSave])
        let merging = Task { () -> Bool in
            for await notification in stream {
                try await reader.perform { try reader.mergeChanges(fromContextDidSave: notification) }
                return true
            }
            return false
        }
        try await retitle(ids.dune, "Dune Messiah", in: try #require(editor))
        editor = nil  // should no did-save come, the stream ends with the editor
        #expect(try await merging.value)
        let title = try await reader.perform { try reader.object(with: ids.dune).value(forKey: "title") }
        #expect(title == "Dune Messiah")
    }

    private func retitle(_ id: ObjectID, _ title: String, in context: ManagedObjectContext) async throws {
        try await context.perform {
            try context.object(with: id).setValue(.string(title), forKey: "title")
            try context.save()
        }
    }
}
