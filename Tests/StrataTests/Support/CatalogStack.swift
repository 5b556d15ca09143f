import Foundation

@testable import Strata

/// A library in one in-memory store: authors write books (one-to-many), books carry tags
/// (many-to-many), a series orders its volumes (ordered to-many) and a book has one cover
/// (one-to-one).
struct CatalogStack {
    let coordinator: PersistentStoreCoordinator
    let store: any IncrementalStore
    let context: ManagedObjectContext

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Author") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("books", destination: "Book", inverse: "author")
            }
            EntityDescription("Book") {
                AttributeDescription("title", .string)
                AttributeDescription("pages", .integer32)
                AttributeDescription("price", .decimal)
                AttributeDescription("note", .string, default: "none", transient: true)
                RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
                RelationshipDescription.toMany("tags", destination: "Tag", inverse: "books")
                RelationshipDescription.toOne("series", destination: "Series", inverse: "volumes")
                RelationshipDescription.toOne("cover", destination: "Cover", inverse: "book", deleteRule: .cascade)
            }
            EntityDescription("Tag") {
                AttributeDescription("label", .string)
                RelationshipDescription.toMany("books", destination: "Book", inverse: "tags")
            }
            EntityDescription("Series") {
                AttributeDescription("name", .string)
                RelationshipDescription.toMany("volumes", destination: "Book", inverse: "series", ordered: true)
            }
            EntityDescription("Cover") {
                AttributeDescription("color", .string)
                RelationshipDescription.toOne("book", destination: "Book", inverse: "cover")
            }
        }
    }

    init() throws {
        coordinator = try PersistentStoreCoordinator(model: Self.model())
        store = try coordinator.addStore(type: StoreType.inMemory.name, configuration: nil)
        context = ManagedObjectContext(coordinator: coordinator, name: "main")
    }

    /// Another context on the same coordinator.
    func makeContext(name: String) -> ManagedObjectContext {
        ManagedObjectContext(coordinator: coordinator, name: name)
    }

    /// Inserts an object of `entity` into `context` (the main one by default) with `values`.
    @discardableResult
    func insert(
        _ entity: String, _ values: [String: AttributeValue] = [:], into context: ManagedObjectContext? = nil
    ) throws -> ManagedObject {
        try (context ?? self.context).insert(entity, values)
    }

    /// Saves objects of `entity` with `values` in a context of their own and returns their IDs.
    func saved(_ entity: String, _ rows: [[String: AttributeValue]]) throws -> [ObjectID] {
        let writer = makeContext(name: "writer")
        return try writer.performAndWait {
            let objects = try rows.map { try insert(entity, $0, into: writer) }
            try writer.save()
            return objects.map(\.objectID)
        }
    }

    /// The stored values of `id`, read straight from the store.
    func stored(_ id: ObjectID) throws -> [String: AttributeValue]? {
        try store.snapshot(for: id)?.values.dictionary
    }
}
