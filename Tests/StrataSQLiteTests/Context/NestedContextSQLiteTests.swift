import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// Three levels of contexts over an SQLite file: what the grandchild does reaches the file once
/// each level has saved, and a new coordinator reads it back.
@Suite struct NestedContextSQLiteTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    static let model = ManagedObjectModel {
        EntityDescription("Author") {
            AttributeDescription("name", .string)
            RelationshipDescription.toMany("books", destination: "Book", inverse: "author", deleteRule: .cascade)
        }
        EntityDescription("Book") {
            AttributeDescription("title", .string)
            AttributeDescription("pages", .integer32)
            RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
        }
    }

    private func coordinator(at url: URL) throws -> PersistentStoreCoordinator {
        let coordinator = try PersistentStoreCoordinator(model: Self.model, storeTypes: [.sqlite])
        try coordinator.addStore(type: "SQLite", at: url)
        return coordinator
    }

    private func titles(in context: ManagedObjectContext) throws -> [String] {
        var request = FetchRequest<ManagedObject>(entityName: "Book")
        request.sortDescriptors = [FetchSortDescriptor("title")]
        return try context.performAndWait {
            try context.fetch(request).map { object in
                guard case .string(let title) = try object.value(forKey: "title") else { return "" }
                return title
            }
        }
    }

    @Test func aGrandchildsWorkReachesTheFileThroughEveryLevel() throws {
        let url = directory.file("library.sqlite")
        let root = ManagedObjectContext(coordinator: try coordinator(at: url), name: "root")
        let removedAuthor = try root.performAndWait {
            let asimov = try root.insertNewObject(forEntityName: "Author")
            try asimov.setValue("Asimov", forKey: "name")
            try root.insertNewObject(forEntityName: "Book").setValues([
                "title": "Foundation", "author": .objectID(asimov.objectID),
            ])
            try root.save()
            return asimov.objectID
        }
        let child = ManagedObjectContext(parent: root, name: "child")
        let grandchild = ManagedObjectContext(parent: child, name: "grandchild")
        try grandchild.performAndWait {
            let herbert = try grandchild.insertNewObject(forEntityName: "Author")
            try herbert.setValue("Herbert", forKey: "name")
            for (title, pages) in [("Dune", 412), ("Dune Messiah", 256)] {
                try grandchild.insertNewObject(forEntityName: "Book").setValues([
                    "title": .string(title), "pages": .integer32(Int32(pages)), "author": .objectID(herbert.objectID),
                ])
            }
            try grandchild.delete(grandchild.object(with: removedAuthor))
            try grandchild.save()
        }
        #expect(try titles(in: child) == ["Dune", "Dune Messiah"])
        #expect(try titles(in: root) == ["Foundation"])
        try child.performAndWait { try child.save() }
        #expect(try titles(in: root) == ["Dune", "Dune Messiah"])
        try root.performAndWait { try root.save() }

        let reopened = ManagedObjectContext(coordinator: try coordinator(at: url), name: "reopened")
        #expect(try titles(in: reopened) == ["Dune", "Dune Messiah"])
        try reopened.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Author")
            request.predicate = try FetchPredicate(format: "name == 'Herbert'")
            let herbert = try #require(try reopened.fetch(request).first)
            #expect(try herbert.objects(forKey: "books").count == 2)
            #expect(try reopened.count(for: FetchRequest<ManagedObject>(entityName: "Author")) == 1)
        }
    }
}

extension ManagedObject {
    /// Sets each attribute, or to-one relationship (by object ID), in `values`.
    fileprivate func setValues(_ values: [String: AttributeValue]) throws {
        for (key, value) in values { try setValue(value, forKey: key) }
    }
}
