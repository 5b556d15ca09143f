import Foundation
import Testing

@testable import Strata

/// Objects-did-change coalesced per block, will-save and did-save with their object sets,
/// delivered to callbacks and as an asynchronous sequence; merging another context's save.
@Suite struct ContextNotificationTests {
    @Test func objectsDidChangeIsPostedOncePerBlockWithEveryChange() throws {
        let stack = try LibraryStack()
        let book = try stack.insert("Book", ["title": "Dune"])
        let author = try stack.insert("Author", ["name": "Herbert"])
        try stack.context.performAndWait { try stack.context.save() }
        var posted: [ContextChanges] = []
        let token = stack.context.performAndWait {
            stack.context.addObserver(for: .objectsDidChange) { posted.append($0) }
        }
        let tag = try stack.context.performAndWait {
            let tag = try stack.context.insertNewObject(forEntityName: "Tag")
            try book.setValue("Dune Messiah", forKey: "title")
            try book.setValue(.integer32(256), forKey: "pages")
            try stack.context.delete(author)
            return tag
        }
        #expect(posted.count == 1)
        #expect(posted.first?.insertedObjects == [tag])
        #expect(posted.first?.updatedObjects.contains(book) == true)
        #expect(posted.first?.deletedObjects == [author])

        stack.context.performAndWait { stack.context.removeObserver(token) }
        try stack.context.performAndWait { try tag.setValue("ignored", forKey: "name") }
        #expect(posted.count == 1)
    }

    @Test func saveNotificationsCarryTheSavedObjects() throws {
        let stack = try LibraryStack()
        let old = try stack.insert("Book", ["title": "Old"])
        try stack.context.performAndWait { try stack.context.save() }
        var kinds: [ContextNotification.Kind] = []
        var didSave: ContextChanges?
        let new = try stack.context.performAndWait {
            stack.context.addObserver(for: .willSave) { kinds.append($0.kind) }
            stack.context.addObserver(for: .didSave) {
                kinds.append($0.kind)
                didSave = $0
            }
            let new = try stack.context.insertNewObject(forEntityName: "Book")
            try new.setValue("New", forKey: "title")
            try stack.context.delete(old)
            try stack.context.save()
            return new
        }
        #expect(kinds == [.willSave, .didSave])
        #expect(didSave?.insertedObjects == [new] && didSave?.deletedObjects == [old])
        #expect(didSave?.notification.insertedObjectIDs == [new.objectID])
        #expect(didSave?.notification.insertedObjectIDs.allSatisfy { !$0.isTemporary } == true)
    }

    @Test func notificationsArriveAsAnAsyncSequence() async throws {
        let stack = try LibraryStack()
        let stream = stack.context.notifications(of: [.didSave])
        let saved = try await stack.context.perform {
            let book = try stack.context.insertNewObject(forEntityName: "Book")
            try book.setValue("Dune", forKey: "title")
            try stack.context.save()
            return book.objectID
        }
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.kind == .didSave && first?.insertedObjectIDs == [saved])
    }

    @Test func mergingAnotherContextsSaveRefreshesAndDeletesButKeepsOwnChanges() throws {
        let stack = try LibraryStack()
        let kept = try stack.insert("Book", ["title": "Kept"])
        let gone = try stack.insert("Book", ["title": "Gone"])
        let mine = try stack.insert("Book", ["title": "Mine"])
        try stack.context.performAndWait { try stack.context.save() }
        let other = try stack.sibling()
        var saved: ContextNotification?
        try other.context.performAndWait {
            other.context.addObserver(for: .didSave) { saved = $0.notification }
            try other.context.existingObject(with: kept.objectID).setValue(.integer32(999), forKey: "pages")
            try other.context.delete(try other.context.existingObject(with: gone.objectID))
            try other.context.save()
        }
        let notification = try #require(saved)
        try stack.context.performAndWait {
            try mine.setValue("Mine, edited", forKey: "title")
            try stack.context.mergeChanges(fromContextDidSave: notification)
            #expect(try kept.value(forKey: "pages") == 999)
            #expect(gone.isDeleted && stack.context.registeredObject(for: gone.objectID) == nil)
            #expect(try mine.value(forKey: "title") == "Mine, edited" && mine.isUpdated)
        }
    }
}
