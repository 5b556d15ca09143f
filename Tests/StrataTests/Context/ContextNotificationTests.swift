import Foundation
import Testing

@testable import Strata

/// Objects-did-change, will-save and did-save, through observers and asynchronous streams.
@Suite struct ContextNotificationTests {
    /// The notifications a context posted to an observer, in order.
    final class NotificationLog {
        var entries: [ContextChanges] = []
        var tokens: [ObserverToken] = []

        /// Observes `kinds` on `context`; call on the context's queue.
        func observe(_ context: ManagedObjectContext, _ kinds: [ContextNotification.Kind]) {
            for kind in kinds {
                tokens.append(context.addObserver(for: kind) { [unowned self] in entries.append($0) })
            }
        }

        var kinds: [ContextNotification.Kind] { entries.map(\.kind) }
    }

    /// Saves Dune and Emma and returns their IDs.
    private func savedBooks(_ stack: CatalogStack) throws -> (dune: ObjectID, emma: ObjectID) {
        let ids = try stack.saved("Book", [["title": "Dune"], ["title": "Emma"]])
        return (ids[0], ids[1])
    }

    @Test func changesInOneBlockArePostedAsOneNotification() throws {
        let stack = try CatalogStack()
        let ids = try savedBooks(stack)
        let log = NotificationLog()
        stack.context.performAndWait { log.observe(stack.context, [.objectsDidChange]) }
        #expect(log.entries.isEmpty)
        let (tag, dune, emma) = try stack.context.performAndWait {
            let tag = try stack.insert("Tag", ["label": "classic"])
            let dune = stack.context.object(with: ids.dune)
            try dune.setValue("Dune Messiah", forKey: "title")
            let emma = stack.context.object(with: ids.emma)
            try emma.setValue("Emma, revised", forKey: "title")
            try stack.context.delete(emma)
            try tag.setValue("classics", forKey: "label")
            try dune.setValue(.integer32(500), forKey: "pages")
            #expect(log.entries.isEmpty)
            return (tag, dune, emma)
        }
        #expect(log.kinds == [.objectsDidChange])
        let changes = try #require(log.entries.first)
        #expect(changes.insertedObjects == [tag])
        #expect(changes.updatedObjects == [dune])
        #expect(changes.deletedObjects == [emma])
        #expect(changes.refreshedObjects.isEmpty)
        #expect(changes.notification.insertedObjectIDs == [tag.objectID])
        #expect(changes.notification.updatedObjectIDs == [ids.dune])
        #expect(changes.notification.deletedObjectIDs == [ids.emma])
        #expect(changes.notification.contextName == "main")
    }

    @Test func eachOutermostBlockPostsItsOwnNotification() throws {
        let stack = try CatalogStack()
        let log = NotificationLog()
        try stack.context.performAndWait {
            log.observe(stack.context, [.objectsDidChange])
            try stack.insert("Tag", ["label": "a"])
        }
        try stack.context.performAndWait {
            try stack.insert("Tag", ["label": "b"])
            _ = try stack.context.performAndWait { try stack.insert("Tag", ["label": "c"]) }
            #expect(log.entries.count == 1)
        }
        stack.context.performAndWait {}
        #expect(log.entries.map(\.insertedObjects.count) == [1, 2])
    }

    @Test func processPendingChangesPostsAtOnce() throws {
        let stack = try CatalogStack()
        let log = NotificationLog()
        try stack.context.performAndWait {
            log.observe(stack.context, [.objectsDidChange])
            let first = try stack.insert("Tag", ["label": "a"])
            stack.context.processPendingChanges()
            #expect(log.entries.map(\.insertedObjects) == [[first]])
            stack.context.processPendingChanges()
            #expect(log.entries.count == 1)
            try stack.insert("Tag", ["label": "b"])
            #expect(log.entries.count == 1)
        }
        #expect(log.entries.count == 2)
        #expect(log.entries.last?.insertedObjects.count == 1)
        #expect(log.entries.last?.insertedObjects.first !== log.entries.first?.insertedObjects.first)
    }

    @Test func willSaveAndDidSaveCarryTheSavedObjects() throws {
        let stack = try CatalogStack()
        let ids = try savedBooks(stack)
        let log = NotificationLog()
        let (tag, temporaryID) = try stack.context.performAndWait {
            log.observe(stack.context, [.objectsDidChange, .willSave, .didSave])
            let tag = try stack.insert("Tag", ["label": "classic"])
            try stack.context.object(with: ids.dune).setValue("Dune Messiah", forKey: "title")
            try stack.context.delete(stack.context.object(with: ids.emma))
            let temporaryID = tag.objectID
            try stack.context.save()
            return (tag, temporaryID)
        }
        #expect(log.kinds == [.objectsDidChange, .willSave, .didSave])
        let willSave = log.entries[1].notification
        #expect(willSave.insertedObjectIDs == [temporaryID])
        #expect(willSave.updatedObjectIDs == [ids.dune])
        #expect(willSave.deletedObjectIDs == [ids.emma])
        let didSave = log.entries[2]
        #expect(didSave.insertedObjects == [tag])
        #expect(didSave.notification.insertedObjectIDs == [tag.objectID])
        #expect(!tag.objectID.isTemporary && tag.objectID != temporaryID)
        #expect(didSave.notification.updatedObjectIDs == [ids.dune])
        #expect(didSave.notification.deletedObjectIDs == [ids.emma])
        #expect(didSave.notification.contextName == "main")
    }

    @Test func aWillSaveObserverMayStillChangeObjects() throws {
        let stack = try CatalogStack()
        let id: ObjectID = try stack.context.performAndWait {
            stack.context.addObserver(for: .willSave) { changes in
                for object in changes.insertedObjects {
                    do {
                        let title = try object.value(forKey: "title").get(String.self) ?? ""
                        try object.setValue(.string(title.uppercased()), forKey: "title")
                    } catch {
                        Issue.record(error)
                    }
                }
            }
            let book = try stack.insert("Book", ["title": "Dune"])
            try stack.context.save()
            return book.objectID
        }
        #expect(try stack.stored(id)?["title"] == "DUNE")
    }

    @Test func aSaveWithoutChangesPostsNothing() throws {
        let stack = try CatalogStack()
        let log = NotificationLog()
        try stack.context.performAndWait {
            log.observe(stack.context, [.objectsDidChange, .willSave, .didSave])
            try stack.context.save()
        }
        #expect(log.entries.isEmpty)
    }

    @Test func aRemovedObserverIsNoLongerCalled() throws {
        let stack = try CatalogStack()
        let log = NotificationLog()
        try stack.context.performAndWait {
            log.observe(stack.context, [.objectsDidChange])
            try stack.insert("Tag", ["label": "a"])
        }
        try stack.context.performAndWait {
            for token in log.tokens { stack.context.removeObserver(token) }
            try stack.insert("Tag", ["label": "b"])
        }
        #expect(log.entries.count == 1)
    }

    @Test func anObserverMayRemoveItselfWhileCalled() throws {
        let stack = try CatalogStack()
        var calls = 0
        try stack.context.performAndWait {
            var token: ObserverToken?
            token = stack.context.addObserver(for: .objectsDidChange) { _ in
                calls += 1
                if let token { stack.context.removeObserver(token) }
            }
            try stack.insert("Tag", ["label": "a"])
        }
        _ = try stack.context.performAndWait { try stack.insert("Tag", ["label": "b"]) }
        #expect(calls == 1)
    }

    /// Inserts a book titled `title` in `context` and saves it; returns its ID.
    private func saveBook(_ title: String, in context: ManagedObjectContext) async throws -> ObjectID {
        try await context.perform {
            let book = try context.insertNewObject(forEntityName: "Book")
            try book.setValue(.string(title), forKey: "title")
            try context.save()
            return book.objectID
        }
    }

    /// Every element of `stream`, which ends when its context goes away.
    private func collect(_ stream: AsyncStream<ContextNotification>) async -> [ContextNotification] {
        var all: [ContextNotification] = []
        for await notification in stream { all.append(notification) }
        return all
    }

    @Test func aStreamDeliversDidSaveToAnotherTask() async throws {
        let stack = try CatalogStack()
        var context: ManagedObjectContext? = stack.makeContext(name: "writer")
        let stream = try #require(context).notifications(of: [.didSave])
        let consumer = Task { () -> ContextNotification? in
            for await notification in stream { return notification }
            return nil
        }
        let id = try await saveBook("Dune", in: try #require(context))
        context = nil  // should no did-save come, the stream ends with the context
        let notification = try #require(await consumer.value)
        #expect(notification.kind == .didSave)
        #expect(notification.insertedObjectIDs == [id])
        #expect(notification.updatedObjectIDs.isEmpty && notification.deletedObjectIDs.isEmpty)
        #expect(notification.contextName == "writer")
    }

    @Test func aStreamDeliversOnlyTheKindsAskedFor() async throws {
        let stack = try CatalogStack()
        var context: ManagedObjectContext? = stack.makeContext(name: "writer")
        let didSave = try #require(context).notifications(of: [.didSave])
        let didChange = try #require(context).notifications(of: [.objectsDidChange])
        let everything = try #require(context).notifications()
        let id = try await saveBook("Dune", in: try #require(context))
        try await retitle(id, "Emma", in: try #require(context))
        context = nil
        let saves = await collect(didSave)
        #expect(saves.map(\.insertedObjectIDs) == [[id]])
        let changes = await collect(didChange)
        #expect(changes.map(\.kind) == [.objectsDidChange, .objectsDidChange])
        #expect(changes.first?.insertedObjectIDs.count == 1)
        #expect(changes.last?.updatedObjectIDs == [id])
        #expect(changes.last?.insertedObjectIDs.isEmpty == true)
        let all = await collect(everything)
        #expect(all.map(\.kind) == [.objectsDidChange, .willSave, .didSave, .objectsDidChange])
        let willSave = try #require(all.first { $0.kind == .willSave })
        #expect(willSave.insertedObjectIDs.count == 1)
        #expect(willSave.insertedObjectIDs.allSatisfy { $0.isTemporary && $0.entityName == "Book" })
    }

    private func retitle(_ id: ObjectID, _ title: String, in context: ManagedObjectContext) async throws {
        try await context.perform { try context.object(with: id).setValue(.string(title), forKey: "title") }
    }

    @Test func aStreamEndsWhenItsContextGoesAway() async throws {
        let stack = try CatalogStack()
        var context: ManagedObjectContext? = stack.makeContext(name: "short-lived")
        let stream = try #require(context).notifications()
        weak let gone = context
        context = nil
        try #require(gone == nil)
        #expect(await collect(stream).isEmpty)
    }
}
