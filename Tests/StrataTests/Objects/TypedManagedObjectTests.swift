import Foundation
import Testing

@testable import Strata

/// Subclasses of ManagedObject with typed properties, registered for their entities.
@Suite struct TypedManagedObjectTests {
    final class Writer: ManagedObject {
        override class var entityName: String { "Author" }
        @Managed var name: String
        @ToMany var books: Set<Book>
    }

    final class Book: ManagedObject {
        @Managed var title: String
        @Managed var pages: Int32?
        @Managed var price: Decimal?
        @ToOne var author: Writer?
        @ToMany var tags: Set<Keyword>
        @ToOne var series: Series?
    }

    final class Keyword: ManagedObject {
        override class var entityName: String { "Tag" }
        @Managed var label: String
        @ToMany var books: Set<Book>
    }

    final class Series: ManagedObject {
        @Managed var name: String
        @OrderedToMany var volumes: [Book]
    }

    private func registeredStack() throws -> CatalogStack {
        let stack = try CatalogStack()
        for type in [Writer.self, Book.self, Keyword.self, Series.self] as [ManagedObject.Type] {
            stack.coordinator.register(type)
        }
        return stack
    }

    @Test func theEntityNameIsTheClassNameUnlessOverridden() {
        #expect(Book.entityName == "Book")
        #expect(Series.entityName == "Series")
        #expect(Writer.entityName == "Author")
        #expect(Keyword.entityName == "Tag")
    }

    @Test func typedAttributesAreStoredUnderThePropertyName() throws {
        let stack = try CatalogStack()
        try stack.context.performAndWait {
            let book = Book(context: stack.context)
            book.title = "Dune"
            book.pages = 412
            book.price = Decimal(string: "9.99")
            #expect(book.title == "Dune")
            #expect(book.pages == 412)
            #expect(book.price == Decimal(string: "9.99"))
            #expect(try book.value(forKey: "title") == "Dune")
            guard case .integer32(412) = try book.value(forKey: "pages") else {
                Issue.record("pages is \(try book.value(forKey: "pages")), not .integer32(412)")
                return
            }
            book.pages = nil
            #expect(book.pages == nil)
            #expect(try book.value(forKey: "pages") == .null)
            try book.setValue(.integer32(7), forKey: "pages")
            #expect(book.pages == 7)
        }
    }

    @Test func insertingRegistersTheClassForItsEntity() throws {
        let stack = try CatalogStack()
        #expect(stack.coordinator.objectClass(forEntity: "Author") == ManagedObject.self)
        try stack.context.performAndWait { () throws in
            let writer = Writer(context: stack.context)
            writer.name = "Ada"
            #expect(stack.coordinator.objectClass(forEntity: "Author") == Writer.self)
            #expect(try stack.context.insertNewObject(forEntityName: "Author") is Writer)
            #expect(writer.entity.name == "Author")
        }
        #expect(stack.coordinator.objectClass(forEntity: "Tag") == ManagedObject.self)
    }

    @Test func registeredClassesComeBackFromFetchesFaultsAndRelationships() throws {
        let stack = try registeredStack()
        let bookID: ObjectID = try stack.context.performAndWait {
            let ada = try stack.insert("Author", ["name": "Ada"])
            let book = try stack.insert("Book", ["title": "Dune", "pages": .integer32(412)])
            try book.setObject(ada, forKey: "author")
            #expect(ada is Writer && book is Book)
            try stack.context.save()
            return book.objectID
        }
        let reader = stack.makeContext(name: "reader")
        try reader.performAndWait {
            #expect(reader.object(with: bookID) is Book)
            let books = try reader.fetch(FetchRequest<Book>())
            let book = try #require(books.first)
            #expect(books.count == 1)
            #expect(book.title == "Dune")
            #expect(book.pages == 412)
            #expect(book.price == nil)
            let author = try #require(book.author)
            #expect(author.name == "Ada")
            #expect(author.books == [book])
            let writers = try reader.fetch(FetchRequest<Writer>())
            #expect(writers.first === author)
        }
    }

    @Test func aClassRegisteredAfterTheContextMadeObjectsOfItsEntityMakesTheNextOnes() throws {
        let stack = try CatalogStack()
        let bookIDs: [ObjectID] = try stack.context.performAndWait {
            let books = try (0..<2).map { try stack.insert("Book", ["title": .string("Book \($0)")]) }
            try stack.context.save()
            return books.map(\.objectID)
        }
        let reader = stack.makeContext(name: "reader")
        reader.performAndWait {
            #expect(type(of: reader.object(with: bookIDs[0])) == ManagedObject.self)
            stack.coordinator.register(Book.self)
            #expect(reader.object(with: bookIDs[1]) is Book)
            #expect(
                type(of: reader.object(with: bookIDs[0])) == ManagedObject.self, "a registered object keeps its class")
        }
    }

    @Test func aFetchForAnotherClassThanTheRegisteredOneIsRefused() throws {
        let stack = try registeredStack()
        try stack.context.performAndWait {
            let writer = Writer(context: stack.context)
            writer.name = "Ada"
            try stack.context.save()
            let error = try #require(throws: ContextError.self) {
                try stack.context.fetch(FetchRequest<Book>(entityName: "Author"))
            }
            #expect(error.code == .wrongClass)
            #expect(error.message.contains("'Author'"))
        }
    }

    @Test func typedRelationshipsKeepTheirInverses() throws {
        let stack = try registeredStack()
        stack.context.performAndWait {
            let ada = Writer(context: stack.context)
            let bob = Writer(context: stack.context)
            let dune = Book(context: stack.context)
            let emma = Book(context: stack.context)
            dune.author = ada
            #expect(ada.books == [dune])
            bob.books = [dune, emma]
            #expect(dune.author === bob && emma.author === bob)
            #expect(ada.books.isEmpty)
            bob.books.remove(dune)
            #expect(dune.author == nil)
            #expect(bob.books == [emma])

            let classic = Keyword(context: stack.context)
            classic.books = [dune, emma]
            #expect(dune.tags == [classic] && emma.tags == [classic])
            emma.tags = []
            #expect(classic.books == [dune])
        }
    }

    @Test func anOrderedTypedRelationshipKeepsItsOrderThroughASave() throws {
        let stack = try registeredStack()
        let seriesID: ObjectID = try stack.context.performAndWait {
            let series = Series(context: stack.context)
            series.name = "Dune"
            let volumes = ["Dune", "Messiah", "Children"].map { title in
                let book = Book(context: stack.context)
                book.title = title
                return book
            }
            series.volumes = [volumes[2], volumes[0], volumes[1]]
            #expect(volumes.allSatisfy { $0.series === series })
            series.volumes.append(Book(context: stack.context))
            #expect(series.volumes.count == 4)
            series.volumes.removeLast()
            try stack.context.save()
            return series.objectID
        }
        let reader = stack.makeContext(name: "reader")
        try reader.performAndWait {
            let series = try #require(reader.object(with: seriesID) as? Series)
            #expect(series.volumes.map(\.title) == ["Children", "Dune", "Messiah"])
        }
    }

    @Test func typedPropertiesWorkOnAFaultInAnotherContext() throws {
        let stack = try registeredStack()
        let id: ObjectID = try stack.context.performAndWait {
            let book = Book(context: stack.context)
            book.title = "Dune"
            try stack.context.save()
            return book.objectID
        }
        let editor = stack.makeContext(name: "editor")
        try editor.performAndWait {
            let book = try #require(editor.object(with: id) as? Book)
            #expect(book.isFault)
            book.title = "Dune Messiah"
            #expect(!book.isFault && book.isUpdated)
            try editor.save()
        }
        #expect(try stack.stored(id)?["title"] == "Dune Messiah")
    }
}
