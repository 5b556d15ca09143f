import Foundation
import Testing

@testable import Strata

/// Setting either side of a relationship keeps the inverse side of every object involved in step.
@Suite struct ManagedObjectRelationshipTests {
    private func ids(_ objects: [ManagedObject]) -> Set<ObjectID> { Set(objects.map(\.objectID)) }

    @Test func settingAToOneMovesTheObjectBetweenTheInverseToManys() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"])
            let bob = try stack.insert("Author", ["name": "Bob"])
            let dune = try stack.insert("Book", ["title": "Dune"])
            let emma = try stack.insert("Book", ["title": "Emma"])
            try dune.setObject(ada, forKey: "author")
            try emma.setObject(ada, forKey: "author")
            #expect(try ada.objects(forKey: "books") == [dune, emma])
            try dune.setObject(bob, forKey: "author")
            #expect(try ada.objects(forKey: "books") == [emma])
            #expect(try bob.objects(forKey: "books") == [dune])
            try emma.setObject(nil, forKey: "author")
            #expect(try ada.objects(forKey: "books").isEmpty)
            #expect(try emma.object(forKey: "author") == nil)
        }
    }

    @Test func settingAToManyPointsEachMemberBackAndTakesItFromItsOldOwner() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"])
            let bob = try stack.insert("Author", ["name": "Bob"])
            let books = try ["A", "B", "C"].map { try stack.insert("Book", ["title": .string($0)]) }
            try ada.setObjects(books, forKey: "books")
            for book in books { #expect(try book.object(forKey: "author") === ada) }
            try bob.setObjects([books[1]], forKey: "books")
            #expect(try books[1].object(forKey: "author") === bob)
            #expect(try ada.objects(forKey: "books") == [books[0], books[2]])
            try ada.setObjects([books[2]], forKey: "books")
            #expect(try books[0].object(forKey: "author") == nil)
            #expect(try books[2].object(forKey: "author") === ada)
            #expect(try bob.objects(forKey: "books") == [books[1]])
        }
    }

    @Test func addingAndRemovingOneMemberUpdatesItsInverse() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"])
            let book = try stack.insert("Book", ["title": "Dune"])
            try ada.addObject(book, forKey: "books")
            try ada.addObject(book, forKey: "books")
            #expect(try ada.objects(forKey: "books") == [book])
            #expect(try book.object(forKey: "author") === ada)
            try ada.removeObject(book, forKey: "books")
            #expect(try ada.objects(forKey: "books").isEmpty)
            #expect(try book.object(forKey: "author") == nil)
        }
    }

    @Test func manyToManyKeepsBothSidesInStep() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let dune = try stack.insert("Book", ["title": "Dune"])
            let emma = try stack.insert("Book", ["title": "Emma"])
            let classic = try stack.insert("Tag", ["label": "classic"])
            let scifi = try stack.insert("Tag", ["label": "sci-fi"])
            try dune.setObjects([classic, scifi], forKey: "tags")
            try classic.addObject(emma, forKey: "books")
            #expect(ids(try classic.objects(forKey: "books")) == ids([dune, emma]))
            #expect(try scifi.objects(forKey: "books") == [dune])
            #expect(try emma.objects(forKey: "tags") == [classic])
            try dune.removeObject(classic, forKey: "tags")
            #expect(try classic.objects(forKey: "books") == [emma])
            #expect(try dune.objects(forKey: "tags") == [scifi])
            try scifi.setObjects([emma], forKey: "books")
            #expect(try dune.objects(forKey: "tags").isEmpty)
            #expect(ids(try emma.objects(forKey: "tags")) == ids([classic, scifi]))
        }
    }

    @Test func manyToManyIsSavedOnBothSides() throws {
        let stack = try CatalogStack()
        let (duneID, tagID) = try stack.context.performAndWait {
            let dune = try stack.insert("Book", ["title": "Dune"])
            let emma = try stack.insert("Book", ["title": "Emma"])
            let tag = try stack.insert("Tag", ["label": "classic"])
            try dune.addObject(tag, forKey: "tags")
            try emma.addObject(tag, forKey: "tags")
            try stack.context.save()
            try tag.removeObject(dune, forKey: "books")
            try stack.context.save()
            return (dune.objectID, tag.objectID)
        }
        let reader = stack.makeContext(name: "reader")
        try reader.performAndWait {
            let tag = reader.object(with: tagID)
            let titles = try tag.objects(forKey: "books").map { try $0.value(forKey: "title") }
            #expect(titles == ["Emma"])
            #expect(try reader.object(with: duneID).objects(forKey: "tags").isEmpty)
        }
    }

    @Test func oneToOneTakesTheTargetFromItsPreviousOwner() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let dune = try stack.insert("Book", ["title": "Dune"])
            let emma = try stack.insert("Book", ["title": "Emma"])
            let red = try stack.insert("Cover", ["color": "red"])
            let blue = try stack.insert("Cover", ["color": "blue"])
            try dune.setObject(red, forKey: "cover")
            try emma.setObject(red, forKey: "cover")
            #expect(try dune.object(forKey: "cover") == nil)
            #expect(try red.object(forKey: "book") === emma)
            try blue.setObject(emma, forKey: "book")
            #expect(try emma.object(forKey: "cover") === blue)
            #expect(try red.object(forKey: "book") == nil)
        }
    }

    @Test func anOrderedToManyKeepsItsOrderAndItsInverse() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let series = try stack.insert("Series", ["name": "Dune"])
            let other = try stack.insert("Series", ["name": "Foundation"])
            let volumes = try (1...4).map { try stack.insert("Book", ["title": .string("V\($0)")]) }
            try series.setObjects([volumes[2], volumes[0], volumes[1]], forKey: "volumes")
            #expect(try series.objects(forKey: "volumes") == [volumes[2], volumes[0], volumes[1]])
            for volume in volumes.prefix(3) { #expect(try volume.object(forKey: "series") === series) }
            try volumes[3].setObject(series, forKey: "series")
            #expect(try series.objects(forKey: "volumes") == [volumes[2], volumes[0], volumes[1], volumes[3]])
            try volumes[0].setObject(other, forKey: "series")
            #expect(try series.objects(forKey: "volumes") == [volumes[2], volumes[1], volumes[3]])
            #expect(try other.objects(forKey: "volumes") == [volumes[0]])
            try series.setObjects([volumes[3], volumes[2], volumes[1]], forKey: "volumes")
            #expect(try series.objects(forKey: "volumes") == [volumes[3], volumes[2], volumes[1]])
        }
    }

    @Test func anOrderedToManyReadsBackInItsSavedOrder() throws {
        let stack = try CatalogStack()
        let seriesID: ObjectID = try stack.context.performAndWait {
            let series = try stack.insert("Series", ["name": "Dune"])
            let volumes = try ["C", "A", "B"].map { try stack.insert("Book", ["title": .string($0)]) }
            try series.setObjects(volumes, forKey: "volumes")
            try stack.context.save()
            try series.setObjects([volumes[2], volumes[1], volumes[0]], forKey: "volumes")
            #expect(series.isUpdated)
            try stack.context.save()
            return series.objectID
        }
        let reader = stack.makeContext(name: "reader")
        try reader.performAndWait {
            let titles = try reader.object(with: seriesID).objects(forKey: "volumes").map {
                try $0.value(forKey: "title")
            }
            #expect(titles == ["B", "A", "C"])
        }
    }

    @Test func changingSavedFaultsUpdatesTheInverseOfObjectsNotYetLoaded() throws {
        let stack = try CatalogStack()
        let (bookID, adaID, bobID) = try stack.context.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"])
            let bob = try stack.insert("Author", ["name": "Bob"])
            let book = try stack.insert("Book", ["title": "Dune"])
            try book.setObject(ada, forKey: "author")
            try stack.context.save()
            return (book.objectID, ada.objectID, bob.objectID)
        }
        let editor = stack.makeContext(name: "editor")
        try editor.performAndWait {
            let book = editor.object(with: bookID)
            let bob = editor.object(with: bobID)
            try book.setObject(bob, forKey: "author")
            let ada = try #require(editor.registeredObject(for: adaID))
            #expect(try ada.objects(forKey: "books").isEmpty)
            #expect(ada.isUpdated && bob.isUpdated && book.isUpdated)
            try editor.save()
        }
        #expect(try stack.store.relatedObjectIDs(of: adaID, relationship: "books") == [])
        #expect(try stack.store.relatedObjectIDs(of: bobID, relationship: "books") == [bookID])
        #expect(try stack.stored(bookID)?["author"] == .objectID(bobID))
    }

    @Test func aTargetOfAnotherEntityOrContextIsRefused() throws {
        let stack = try CatalogStack()
        let other = stack.makeContext(name: "other")
        let stranger = try other.performAndWait { try stack.insert("Author", ["name": "Eve"], into: other) }
        try stack.context.performAndWait {
            let book = try stack.insert("Book", ["title": "Dune"])
            let tag = try stack.insert("Tag", ["label": "classic"])
            let wrongEntity = try #require(throws: ContextError.self) { try book.setObject(tag, forKey: "author") }
            #expect(wrongEntity.code == .wrongType)
            #expect(wrongEntity.message.contains("'Book.author'") && wrongEntity.message.contains("Tag"))
            let inMany = try #require(throws: ContextError.self) { try book.setObjects([book], forKey: "tags") }
            #expect(inMany.code == .wrongType)
            let wrongContext = try #require(throws: ContextError.self) {
                try book.setObject(stranger, forKey: "author")
            }
            #expect(wrongContext.code == .wrongContext)
            #expect(wrongContext.message.contains(stranger.objectID.uriString))
            #expect(try book.object(forKey: "author") == nil)
            #expect(try book.objects(forKey: "tags").isEmpty)
        }
    }
}
