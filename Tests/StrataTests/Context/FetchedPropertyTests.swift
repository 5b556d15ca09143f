import Foundation
import Testing

@testable import Strata

/// Fetched properties fetch on first use, across stores, with `$FETCH_SOURCE` and
/// `$FETCHED_PROPERTY` standing for the object and the property, and keep their result until
/// the object is refreshed.
@Suite struct FetchedPropertyTests {
    static let model = ManagedObjectModel {
        EntityDescription("Reader") {
            AttributeDescription("name", .string)
            AttributeDescription("favouriteGenre", .string)
            FetchedPropertyDescription(
                name: "suggestions", destinationEntityName: "Book",
                predicateFormat: "genre == $FETCH_SOURCE.favouriteGenre")
            FetchedPropertyDescription(
                name: "staffPicks", destinationEntityName: "Book",
                predicateFormat: "genre == $FETCHED_PROPERTY.userInfo.genre", userInfo: ["genre": "poetry"])
            FetchedPropertyDescription(
                name: "broken", destinationEntityName: "Book", predicateFormat: "genre == $FETCHED_PROPERTY.entity")
        }
        EntityDescription("Book") {
            AttributeDescription("title", .string)
            AttributeDescription("genre", .string)
            FetchedPropertyDescription(
                name: "sameGenre", destinationEntityName: "Book",
                predicateFormat: "genre == $FETCH_SOURCE.genre AND SELF != $FETCH_SOURCE")
        }
        ConfigurationDescription("People", entities: ["Reader"])
        ConfigurationDescription("Catalogue", entities: ["Book"])
    }

    /// A context on two in-memory stores, readers in one and books in the other, holding Ada
    /// (who likes poetry) and three books.
    static func stack() throws -> (ManagedObjectContext, ManagedObject) {
        let coordinator = try PersistentStoreCoordinator(model: model)
        try coordinator.addStore(.inMemory(configuration: "People"))
        try coordinator.addStore(.inMemory(configuration: "Catalogue"))
        let context = ManagedObjectContext(coordinator: coordinator)
        let reader = try context.performAndWait {
            let reader = try context.insertNewObject(forEntityName: "Reader")
            try reader.setValue("Ada", forKey: "name")
            try reader.setValue("poetry", forKey: "favouriteGenre")
            for (title, genre) in [("Odes", "poetry"), ("Sonnets", "poetry"), ("Atlas", "maps")] {
                try insertBook(title, genre, in: context)
            }
            try context.save()
            return reader
        }
        return (context, reader)
    }

    @discardableResult
    static func insertBook(_ title: String, _ genre: String, in context: ManagedObjectContext) throws -> ManagedObject {
        let book = try context.insertNewObject(forEntityName: "Book")
        try book.setValue(.string(title), forKey: "title")
        try book.setValue(.string(genre), forKey: "genre")
        return book
    }

    static func titles(_ objects: [ManagedObject]) throws -> [String] {
        try objects.map { object -> String in
            guard case .string(let title) = try object.value(forKey: "title") else { return "" }
            return title
        }.sorted()
    }

    @Test func theFetchSourcesValuesChooseObjectsInAnotherStore() throws {
        let (context, reader) = try Self.stack()
        try context.performAndWait { () throws in
            #expect(try Self.titles(try reader.fetchedObjects(forKey: "suggestions")) == ["Odes", "Sonnets"])
            #expect(try Self.titles(try reader.fetchedObjects(forKey: "staffPicks")) == ["Odes", "Sonnets"])
        }
    }

    @Test func theFetchSourceItselfCanBeCompared() throws {
        let (context, _) = try Self.stack()
        try context.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = try FetchPredicate(format: "title == 'Odes'")
            let odes = try #require(try context.fetch(request).first)
            #expect(try Self.titles(try odes.fetchedObjects(forKey: "sameGenre")) == ["Sonnets"])
        }
    }

    @Test func theResultIsKeptUntilTheObjectIsRefreshed() throws {
        let (context, reader) = try Self.stack()
        try context.performAndWait {
            #expect(try reader.fetchedObjects(forKey: "suggestions").count == 2)
            try Self.insertBook("Elegies", "poetry", in: context)
            try context.save()
            #expect(try reader.fetchedObjects(forKey: "suggestions").count == 2)
            try context.refresh(reader, mergeChanges: true)
            #expect(
                try Self.titles(try reader.fetchedObjects(forKey: "suggestions")) == ["Elegies", "Odes", "Sonnets"])
            try Self.insertBook("Hymns", "poetry", in: context)
            try context.save()
            try context.refreshAllObjects()
            #expect(try reader.fetchedObjects(forKey: "suggestions").count == 4)
        }
    }

    @Test func unknownNamesAreReportedNamingThem() throws {
        let (context, reader) = try Self.stack()
        try context.performAndWait {
            let missing = try #require(throws: ContextError.self) { try reader.fetchedObjects(forKey: "nothing") }
            #expect(missing.code == .unknownKey)
            let broken = try #require(throws: ContextError.self) { try reader.fetchedObjects(forKey: "broken") }
            #expect(broken.code == .unknownKey)
            #expect(broken.message.contains("Reader.broken"))
        }
    }
}
