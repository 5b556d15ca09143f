import Foundation

@testable import Strata

/// A coordinator with one in-memory store of a small library model, and helpers that run on
/// a context's queue.
struct LibraryStack {
    let coordinator: PersistentStoreCoordinator
    let store: any IncrementalStore
    let context: ManagedObjectContext

    /// Authors own books (cascade) and a shelf denies deletion while it holds books; chapters
    /// form a cascade chain, rings a cascade cycle; tags are left alone (no action).
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Author") {
                AttributeDescription("name", .string, optional: false)
                RelationshipDescription.toMany("books", destination: "Book", inverse: "author", deleteRule: .cascade)
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string, optional: false, min: 1, max: 40)
                AttributeDescription("pages", .integer32, default: 100, min: 1, max: 5000)
                AttributeDescription("isbn", .string).matching("[0-9]{13}")
                RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
                RelationshipDescription.toOne("shelf", destination: "Shelf", inverse: "books")
                RelationshipDescription.toMany(
                    "chapters", destination: "Chapter", inverse: "book", deleteRule: .cascade)
                RelationshipDescription.toMany("tags", destination: "Tag", inverse: "books", deleteRule: .noAction)
            }
            EntityDescription("Shelf") {
                AttributeDescription("label", .string)
                RelationshipDescription.toMany("books", destination: "Book", inverse: "shelf", deleteRule: .deny)
            }
            EntityDescription("Chapter") {
                AttributeDescription("number", .integer16)
                RelationshipDescription.toOne("book", destination: "Book", inverse: "chapters")
                RelationshipDescription.toMany(
                    "sections", destination: "Section", inverse: "chapter", deleteRule: .cascade)
            }
            EntityDescription("Section") {
                AttributeDescription("heading", .string)
                RelationshipDescription.toOne("chapter", destination: "Chapter", inverse: "sections")
            }
            EntityDescription("Ring") {
                AttributeDescription("name", .string)
                RelationshipDescription.toOne("next", destination: "Ring", inverse: "previous", deleteRule: .cascade)
                RelationshipDescription.toOne("previous", destination: "Ring", inverse: "next", deleteRule: .cascade)
            }
            EntityDescription("Tag") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("books", destination: "Book", inverse: "tags")
            }
        }
    }

    init(coordinator: PersistentStoreCoordinator? = nil) throws {
        let coordinator = try coordinator ?? PersistentStoreCoordinator(model: Self.model())
        self.coordinator = coordinator
        store = try coordinator.stores.first ?? coordinator.addStore(type: StoreType.inMemory.name)
        context = ManagedObjectContext(coordinator: coordinator)
    }

    /// A second context on the same coordinator and store.
    func sibling() throws -> LibraryStack { try LibraryStack(coordinator: coordinator) }

    /// Inserts an object of `entity` with `values`.
    @discardableResult
    func insert(_ entity: String, _ values: [String: AttributeValue] = [:]) throws -> ManagedObject {
        try context.performAndWait {
            let object = try context.insertNewObject(forEntityName: entity)
            for (key, value) in values { try object.setValue(value, forKey: key) }
            return object
        }
    }

    /// The objects of `entity`, sorted by `key`.
    func objects(_ entity: String, sortedBy key: String? = nil) throws -> [ManagedObject] {
        var request = FetchRequest<ManagedObject>(entityName: entity)
        request.sortDescriptors = key.map { [FetchSortDescriptor($0)] } ?? []
        return try context.performAndWait { Array(try context.fetch(request)) }
    }

    /// How many saved objects of `entity` the store holds.
    func storedCount(_ entity: String) throws -> Int {
        guard case .count(let count) = try store.execute(StoreFetchRequest(entityName: entity, resultType: .count))
        else { return -1 }
        return count
    }
}
