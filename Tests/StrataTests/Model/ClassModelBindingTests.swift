import Foundation
import Testing

@testable import Strata

/// Classes bound to a model loaded or built elsewhere are checked when they are bound; a model
/// made from classes hands its classes to every coordinator on it.
@Suite struct ClassModelBindingTests {
    static func libraryModel() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Author") {
                AttributeDescription("name", .string, optional: false)
                RelationshipDescription.toMany("books", destination: "Book", inverse: "author")
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer16, default: 0)
                RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
            }
            EntityDescription("Novel", parent: "Book") {
                AttributeDescription("genre", .string)
            }
        }
    }

    final class Author: ManagedObject {
        @Managed var name: String
        @ToMany var books: Set<Book>
    }

    class Book: ManagedObject {
        @Managed var title: String?
        @Managed var pages: Int64
        @ToOne var author: Author?
    }

    final class Novel: Book {
        @Managed var genre: String?
    }

    @Test func agreeingClassesBindAndCoordinatorsMakeTheirObjects() throws {
        let model = Self.libraryModel()
        try model.bind([Novel.self, Author.self])
        #expect(model.classes["Novel"] == Novel.self && model.classes["Book"] == Book.self)
        let coordinator = try PersistentStoreCoordinator(model: model)
        try coordinator.addStore(.inMemory())
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let author = try context.insertNewObject(forEntityName: "Author")
            try author.setValue(.string("Le Guin"), forKey: "name")
            let novel = try context.insertNewObject(forEntityName: "Novel")
            try novel.setObject(author, forKey: "author")
            try context.save()
        }
        let reader = ManagedObjectContext(coordinator: coordinator)
        try reader.performAndWait {
            // No class was registered with the coordinator or used before this fetch.
            let novels = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Novel"))
            let novel = try #require(novels.first as? Novel)
            #expect(novel.pages == 0)
            #expect(novel.author?.name == "Le Guin")
        }
    }

    final class Misfit: ManagedObject {
        override class var entityName: String { "Book" }
        @Managed var title: Date?
        @Managed var pages: Int16?
        @Managed var subtitle: String?
        @ToMany var author: Set<Author>
        @Managed var isbn: Int32?
    }

    @Test func disagreeingClassesFailAtBindNamingClassAndProperty() throws {
        let model = Self.libraryModel()
        let error = try #require(throws: ModelError.self) { try model.bind([Misfit.self]) }
        #expect(error.code == .invalidModel)
        #expect(error.issues.allSatisfy { $0.kind == .classMismatch && $0.entityName == "Book" })
        let byProperty = Dictionary(error.issues.map { ($0.propertyName ?? "", $0.message) }, uniquingKeysWith: +)
        #expect(byProperty.keys.sorted() == ["author", "isbn", "subtitle", "title"], "\(error)")
        #expect(
            byProperty["title"]?.contains("Misfit.title is a Optional<Date>, which cannot hold the String values")
                == true)
        #expect(byProperty["subtitle"]?.contains("entity 'Book' lacks") == true)
        #expect(byProperty["author"]?.contains("is to-many but entity 'Book''s relationship is to-one") == true)
        #expect(model.classes.isEmpty)
    }

    final class Pamphlet: ManagedObject {
        override class var entityName: String { "Novel" }
        @Managed var genre: Bool?
    }

    final class Stranger: ManagedObject {
        @Managed var name: String?
    }

    @Test func typesHierarchiesAndEntitiesAreCompared() throws {
        let model = Self.libraryModel()
        let error = try #require(throws: ModelError.self) { try model.bind([Pamphlet.self, Stranger.self]) }
        let messages = error.issues.map(\.message)
        #expect(messages.count == 3, "\(messages)")
        #expect(
            messages.contains {
                $0.contains("Pamphlet inherits from ManagedObject but entity 'Novel' inherits from 'Book'")
            })
        #expect(
            messages.contains { $0.contains("Pamphlet.genre is a Optional<Bool>, which cannot hold the String values") }
        )
        #expect(messages.contains { $0.contains("Stranger stands for entity 'Stranger', which the model lacks") })
    }

    @Test func registeringADisagreeingClassIsCaughtBeforeItsPropertiesAreRead() async throws {
        let model = Self.libraryModel()
        try model.freeze()
        #expect(model.propertyMismatches(of: Book.self, entity: "Book").isEmpty)
        #expect(model.propertyMismatches(of: Misfit.self, entity: "Book").count == 4)
        #expect(model.propertyMismatches(of: Novel.self, entity: "Author").count == 1)
        await #expect(processExitsWith: .failure) {
            let coordinator = try PersistentStoreCoordinator(model: ClassModelBindingTests.libraryModel())
            coordinator.register(Misfit.self)
        }
    }

    final class Volume: ManagedObject {
        override class var entityName: String { "Book" }
        @Managed var title: String?
    }

    @Test func twoClassesForOneEntityAreRefused() throws {
        let model = Self.libraryModel()
        let error = try #require(throws: ModelError.self) { try model.bind([Book.self, Volume.self]) }
        #expect(error.issues.map(\.kind) == [.classMismatch])
        #expect(error.issues.first?.message.contains("both stand for entity 'Book'") == true, "\(error)")
        #expect(model.classes.isEmpty)
    }

    @Test func aModelInUseRefusesToBind() throws {
        let model = Self.libraryModel()
        try model.freeze()
        let error = try #require(throws: ModelError.self) { try model.bind([Book.self]) }
        #expect(error.message.contains("in use"))
    }

    final class Shelf: ManagedObject {
        @Managed var label: String
        @Managed var capacity: Int32 = 12
        @OrderedToMany var items: [Item]
    }

    final class Item: ManagedObject {
        @Managed var name: String?
        @ToOne var shelf: Shelf?
    }

    @Test func aModelFromClassesSavesAndFetchesTypedObjects() throws {
        let model = try ManagedObjectModel(types: [Shelf.self])
        let coordinator = try PersistentStoreCoordinator(model: model)
        try coordinator.addStore(.inMemory())
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let shelf = Shelf(context: context)
            #expect(shelf.capacity == 12)
            shelf.label = "Poetry"
            for name in ["Odes", "Sonnets"] {
                let item = Item(context: context)
                item.name = name
                item.shelf = shelf
            }
            try context.save()
        }
        let reader = ManagedObjectContext(coordinator: coordinator)
        try reader.performAndWait {
            let shelf = try #require(try reader.fetch(FetchRequest<Shelf>()).first)
            #expect(shelf.label == "Poetry" && shelf.capacity == 12)
            #expect(shelf.items.map(\.name) == ["Odes", "Sonnets"])
            #expect(shelf.items.allSatisfy { $0.shelf === shelf })
        }
    }
}
