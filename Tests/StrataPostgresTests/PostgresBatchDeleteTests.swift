import Foundation
import Strata
import StrataPostgres
import StrataTestSupport
import Testing

/// The PostgreSQL store's batch deletion is set-based: its statements are one per delete rule,
/// relationship and table, however many objects it deletes and changes. (What it deletes and
/// changes is checked for every store that deletes in place by `StoreBatchDeleteTests`.)
@Suite struct PostgresBatchDeleteTests {
    private static let model: ManagedObjectModel = ManagedObjectModel {
        EntityDescription("Author") {
            AttributeDescription("name", .string)
            RelationshipDescription.toMany("books", destination: "Book", inverse: "author", deleteRule: .cascade)
        }
        EntityDescription("Book") {
            AttributeDescription("title", .string)
            RelationshipDescription.toOne("author", destination: "Author", inverse: "books")
            RelationshipDescription.toOne("shelf", destination: "Shelf", inverse: "books")
            RelationshipDescription.toMany("tags", destination: "Tag", inverse: "books")
        }
        EntityDescription("Shelf") {
            AttributeDescription("label", .string)
            RelationshipDescription.toMany("books", destination: "Book", inverse: "shelf")
        }
        EntityDescription("Tag") {
            AttributeDescription("word", .string)
            RelationshipDescription.toMany("books", destination: "Book", inverse: "tags")
        }
    }

    /// The statements a deletion of every author runs (its schema's name made `schema`), with
    /// `authors` authors of three books
    /// each, every book on one shelf and under one tag; and what the deletion reports.
    private func deleteAll(_ authors: Int) throws -> (statements: [String], result: StoreBatchDeleteResult) {
        let log = CapturedLog()
        let schema = PostgresTestServer.uniqueSchema("books")
        let url = PostgresTestServer.storeURL(schema: schema)
        let coordinator = try PersistentStoreCoordinator(
            model: Self.model, storeTypes: [.postgres], logger: log.logger(level: .warning))
        let store = try coordinator.addStore(
            type: StoreType.postgres.name, at: url, options: StoreOptions(settings: ["slowStatementThreshold": "0"]))
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait { () throws in
            let shelf = try context.insertNewObject(forEntityName: "Shelf")
            let tag = try context.insertNewObject(forEntityName: "Tag")
            for number in 0..<authors {
                let author = try context.insertNewObject(forEntityName: "Author")
                try author.setValue(.string("author \(number)"), forKey: "name")
                for _ in 0..<3 {
                    let book = try context.insertNewObject(forEntityName: "Book")
                    try book.setObject(author, forKey: "author")
                    try book.setObject(shelf, forKey: "shelf")
                    try book.setObjects([tag], forKey: "tags")
                }
            }
            try context.save()
        }
        let before = log.lines.count
        let result = try #require(
            try store.executeBatchDelete(
                StoreBatchDelete(.matching(entityName: "Author", includesSubentities: true, predicate: nil))))
        let statements = log.lines.dropFirst(before).compactMap { $0.metadata["sql"] }
        return (statements.map { $0.replacingOccurrences(of: schema, with: "schema") }, result)
    }

    @Test func aDeletionRunsTheSameStatementsForTwoObjectsAsForAHundred() throws {
        let few = try deleteAll(2)
        let many = try deleteAll(100)
        #expect(few.result.deleted.count == 2 * 4 && many.result.deleted.count == 100 * 4)
        #expect(few.result.updated.count == 2 && many.result.updated.count == 2, "the shelf and the tag")
        #expect(few.statements == many.statements)
        #expect(many.statements.count < 40, "\(many.statements)")
    }
}
