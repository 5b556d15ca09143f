import Foundation
import Strata
import StrataTestSupport
import StrataXML
import Testing

/// An object-ID attribute is kept by the XML store as by the other stores (it was left out of
/// the file, and read back as empty).
@Suite struct XMLStoreObjectIDAttributeTests {
    static let model: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Bookmark") {
                AttributeDescription("target", .objectID)
            }
            EntityDescription("Book") { AttributeDescription("title", .string) }
        }
        try? model.freeze()
        return model
    }()

    @Test func anObjectIDAttributeReadsBackAfterTheStoreIsOpenedAgain() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("bookmarks.xml")
        let saved: ObjectID
        do {
            let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.xml])
            try coordinator.addStore(type: "XML", at: url)
            let context = ManagedObjectContext(coordinator: coordinator)
            saved = try context.performAndWait {
                let book = try context.insertNewObject(forEntityName: "Book")
                try book.setValue("Dune", forKey: "title")
                try context.insertNewObject(forEntityName: "Bookmark").setValue(
                    .objectID(book.objectID), forKey: "target")
                try context.save()
                return book.objectID
            }
            for store in coordinator.stores { try coordinator.remove(store) }
        }
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.xml])
        try coordinator.addStore(type: "XML", at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            let bookmark = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Bookmark")).first)
            #expect(try bookmark.value(forKey: "target") == .objectID(saved))
            #expect(!saved.isTemporary)
        }
    }
}
