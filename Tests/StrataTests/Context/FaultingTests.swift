import Foundation
import Testing

@testable import Strata

/// Faults, lazily loaded relationships, uniquing, and faults whose records are gone.
@Suite struct FaultingTests {
    private let books = FetchRequest<ManagedObject>(entityName: "Book")

    /// Saves Ada with two books and returns the IDs of Ada, Dune and Emma.
    private func savedAuthor(_ stack: CatalogStack) throws -> (ada: ObjectID, dune: ObjectID, emma: ObjectID) {
        let writer = stack.makeContext(name: "writer")
        return try writer.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"], into: writer)
            let dune = try stack.insert("Book", ["title": "Dune", "pages": .integer32(412)], into: writer)
            let emma = try stack.insert("Book", ["title": "Emma", "pages": .integer32(300)], into: writer)
            try ada.setObjects([dune, emma], forKey: "books")
            try writer.save()
            return (ada.objectID, dune.objectID, emma.objectID)
        }
    }

    /// Deletes the object `id` in a context of its own.
    private func deleteElsewhere(_ id: ObjectID, _ stack: CatalogStack) throws {
        let deleter = stack.makeContext(name: "deleter")
        try deleter.performAndWait {
            try deleter.delete(deleter.object(with: id))
            try deleter.save()
        }
    }

    @Test func aFetchedFaultLoadsItsValuesOnFirstUse() throws {
        let stack = try CatalogStack()
        let ids = try savedAuthor(stack)
        try stack.context.performAndWait {
            let results = try stack.context.fetch(books)
            #expect(results.count == 2)
            #expect(results.allSatisfy { $0.isFault })
            let dune = try #require(results.first { $0.objectID == ids.dune })
            #expect(dune.currentValues.isEmpty)
            #expect(try dune.value(forKey: "pages") == .integer32(412))
            #expect(!dune.isFault)
            #expect(try dune.value(forKey: "title") == "Dune")
            #expect(results.first { $0.objectID == ids.emma }?.isFault == true)
        }
    }

    @Test func aFaultFiresWithTheSnapshotFetchedWithIt() throws {
        let stack = try CatalogStack()
        let ids = try savedAuthor(stack)
        try stack.context.performAndWait {
            let dune = try #require(try stack.context.fetch(books).first { $0.objectID == ids.dune })
            let editor = stack.makeContext(name: "editor")
            try editor.performAndWait {
                try editor.object(with: ids.dune).setValue("Dune Messiah", forKey: "title")
                try editor.save()
            }
            #expect(dune.isFault)
            #expect(try dune.value(forKey: "title") == "Dune")
            try stack.context.refresh(dune, mergeChanges: false)
            #expect(dune.isFault)
            #expect(try dune.value(forKey: "title") == "Dune Messiah")
        }
    }

    @Test func aRequestForLoadedObjectsReturnsNoFaults() throws {
        let stack = try CatalogStack()
        _ = try savedAuthor(stack)
        try stack.context.performAndWait {
            var request = books
            request.returnsObjectsAsFaults = false
            let results = try stack.context.fetch(request)
            #expect(results.count == 2)
            #expect(results.allSatisfy { !$0.isFault && $0.currentValue(forKey: "title") != nil })
        }
    }

    @Test func aToManyRelationshipLoadsItsMembersOnFirstUse() throws {
        let stack = try CatalogStack()
        let ids = try savedAuthor(stack)
        try stack.context.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Author")
            request.returnsObjectsAsFaults = false
            let ada = try #require(try stack.context.fetch(request).first)
            #expect(ada.currentMembers["books"] == nil)
            let members = try ada.objects(forKey: "books")
            #expect(Set(members.map(\.objectID)) == [ids.dune, ids.emma])
            #expect(ada.currentMembers["books"].map { Set($0) } == [ids.dune, ids.emma])
            #expect(members.allSatisfy { $0.isFault })
            #expect(!ada.hasChanges)
        }
    }

    @Test func oneObjectPerIDPerContext() throws {
        let stack = try CatalogStack()
        let ids = try savedAuthor(stack)
        let other = stack.makeContext(name: "other")
        try stack.context.performAndWait {
            let fetched = try #require(try stack.context.fetch(books).first { $0.objectID == ids.dune })
            #expect(try stack.context.fetch(books).first { $0.objectID == ids.dune } === fetched)
            #expect(stack.context.object(with: ids.dune) === fetched)
            #expect(stack.context.registeredObject(for: ids.dune) === fetched)
            #expect(try stack.context.existingObject(with: ids.dune) === fetched)
            let ada = try #require(try fetched.object(forKey: "author"))
            #expect(stack.context.object(with: ids.ada) === ada)
            #expect(try ada.objects(forKey: "books").contains { $0 === fetched })
            let elsewhere = other.performAndWait { other.object(with: ids.dune) }
            #expect(elsewhere !== fetched)
        }
    }

    @Test func objectWithReturnsAFaultWithoutReadingTheStore() throws {
        let stack = try CatalogStack()
        let ids = try savedAuthor(stack)
        try stack.context.performAndWait { () throws in
            let dune = stack.context.object(with: ids.dune)
            #expect(dune.isFault)
            #expect(dune.currentValues.isEmpty && dune.committedValues.isEmpty)
            #expect(stack.context.snapshotCache.isEmpty)
            let nowhere = ObjectID(storeIdentifier: UUID().uuidString, entityName: "Book", reference: .integer(1))
            let unreachable = stack.context.object(with: nowhere)
            #expect(unreachable.isFault)
            #expect(stack.context.registeredObject(for: nowhere) === unreachable)
            #expect(try dune.value(forKey: "title") == "Dune")
        }
    }

    @Test func existingObjectLoadsTheObjectOrReportsItMissing() throws {
        let stack = try CatalogStack()
        let ids = try savedAuthor(stack)
        try deleteElsewhere(ids.emma, stack)
        try stack.context.performAndWait {
            let dune = try stack.context.existingObject(with: ids.dune)
            #expect(!dune.isFault)
            #expect(dune.currentValue(forKey: "title") == "Dune")
            let missing = [
                ids.emma,
                ObjectID(storeIdentifier: stack.store.identifier, entityName: "Book", reference: .integer(9999)),
                ObjectID.temporary(entityName: "Book"),
            ]
            for id in missing {
                let error = try #require(throws: ContextError.self) { try stack.context.existingObject(with: id) }
                #expect(error.code == .objectNotFound)
                #expect(error.message.contains(id.uriString))
            }
            let fault = stack.context.object(with: ids.emma)
            #expect(throws: ContextError.self) { try stack.context.existingObject(with: fault.objectID) }
            let new = try stack.insert("Book", ["title": "New"])
            #expect(try stack.context.existingObject(with: new.objectID) === new)
        }
    }

    @Test func aFaultWhoseRecordIsGoneBecomesADeletedObjectWithoutValues() throws {
        let stack = try CatalogStack()
        let ids = try savedAuthor(stack)
        try stack.context.performAndWait {
            #expect(stack.context.shouldDeleteInaccessibleFaults)
            let emma = stack.context.object(with: ids.emma)
            let ada = stack.context.object(with: ids.ada)
            try deleteElsewhere(ids.emma, stack)
            try deleteElsewhere(ids.ada, stack)
            #expect(try emma.value(forKey: "title") == .null)
            #expect(try emma.value(forKey: "pages") == .null)
            #expect(emma.isDeleted && !emma.isFault && !emma.isUpdated)
            #expect(try emma.object(forKey: "author") == nil)
            #expect(try ada.objects(forKey: "books").isEmpty)
            #expect(ada.isDeleted)
        }
    }

    @Test func followingARelationshipToAVanishedRecordGivesADeletedObject() throws {
        let stack = try CatalogStack()
        let ids = try savedAuthor(stack)
        try stack.context.performAndWait {
            var request = books
            request.returnsObjectsAsFaults = false
            let dune = try #require(try stack.context.fetch(request).first { $0.objectID == ids.dune })
            try deleteElsewhere(ids.ada, stack)
            #expect(dune.currentValue(forKey: "author") == .objectID(ids.ada))
            let ada = try #require(try dune.object(forKey: "author"))
            #expect(ada.isFault)
            #expect(try ada.value(forKey: "name") == .null)
            #expect(ada.isDeleted)
        }
    }

    @Test func aFaultWhoseRecordIsGoneThrowsWhenInaccessibleFaultsAreNotDeleted() throws {
        let stack = try CatalogStack()
        let ids = try savedAuthor(stack)
        try stack.context.performAndWait {
            stack.context.shouldDeleteInaccessibleFaults = false
            let emma = stack.context.object(with: ids.emma)
            let ada = stack.context.object(with: ids.ada)
            try deleteElsewhere(ids.emma, stack)
            try deleteElsewhere(ids.ada, stack)
            let error = try #require(throws: ContextError.self) { try emma.value(forKey: "title") }
            #expect(error.code == .inaccessibleFault)
            #expect(error.message.contains(ids.emma.uriString))
            #expect(emma.isFault && !emma.isDeleted)
            let members = try #require(throws: ContextError.self) { try ada.objects(forKey: "books") }
            #expect(members.code == .inaccessibleFault)
            let dune = stack.context.object(with: ids.dune)
            #expect(try dune.value(forKey: "title") == "Dune")
        }
    }
}
