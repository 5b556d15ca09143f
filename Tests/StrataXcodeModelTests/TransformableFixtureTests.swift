import Foundation
import Strata
import StrataSQLite
import Testing

/// Transformable values Core Data wrote: keyed archives of the fixture app's own classes
/// (`CoreDataPlus_Tests.Cover`, `Content`), read through transformers registered with the
/// coordinator.
@Suite struct TransformableFixtureTests {
    /// Reads the `text` field of the archived object an app's transformer wrote, as the app's
    /// own `NSSecureCoding` class would.
    struct ArchivedTextTransformer: AttributeValueTransformer {
        func data(from value: any Sendable) throws -> Data {
            throw ValueTransformerError(message: "ArchivedTextTransformer only reads.")
        }

        func value(from data: Data) throws -> any Sendable {
            let archive = try KeyedArchive(data: data, file: "value")
            return try archive.topObject().string("text") ?? ""
        }
    }

    static func open(transformers: ValueTransformerRegistry, in directory: TemporaryDirectory) throws
        -> ManagedObjectContext
    {
        let storeCase = try SQLiteStoreFixtureWriteTests.storeCase("SampleModel2_V1.sqlite")
        let url = try directory.copyStore(storeCase.store)
        let coordinator = try PersistentStoreCoordinator(
            model: try storeCase.loadModel(), storeTypes: [.sqlite], valueTransformers: transformers)
        try coordinator.addStore(type: StoreType.sqlite.name, at: url)
        return ManagedObjectContext(coordinator: coordinator)
    }

    @Test func theAppsArchivesReadThroughItsTransformers() throws {
        var transformers = ValueTransformerRegistry()
        transformers.register(ArchivedTextTransformer(), named: "CoverTransformer")
        transformers.register(ArchivedTextTransformer(), named: "ContentTransformer")
        let directory = try TemporaryDirectory()
        let context = try Self.open(transformers: transformers, in: directory)
        try context.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "Page")
            request.predicate = try FetchPredicate(format: "number == 50")
            let page = try #require(try context.fetch(request).first)
            #expect(try page.transformedValue(forKey: "content", as: String.self) == "content for page 50")
            let book = try #require(try page.object(forKey: "book"))
            #expect(try book.transformedValue(forKey: "cover", as: String.self) == "default cover")
        }
    }

    @Test func coreDatasOwnTransformerRefusesAnAppClassNamingIt() throws {
        var transformers = ValueTransformerRegistry()
        transformers.register(KeyedArchiveValueTransformer(), named: "CoverTransformer")
        transformers.register(KeyedArchiveValueTransformer(), named: "ContentTransformer")
        let directory = try TemporaryDirectory()
        let context = try Self.open(transformers: transformers, in: directory)
        try context.performAndWait {
            let book = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")).first)
            let error = try #require(throws: ContextError.self) { try book.transformedValue(forKey: "cover") }
            #expect(error.code == .valueTransformation)
            #expect(error.message.contains("CoreDataPlus_Tests.Cover"))
            #expect(error.message.contains("Book.cover"))
        }
    }

    @Test func theStoreIsNotAddedWithoutTheAppsTransformers() throws {
        let directory = try TemporaryDirectory()
        let error = try #require(throws: StoreError.self) {
            _ = try Self.open(transformers: ValueTransformerRegistry(), in: directory)
        }
        #expect(error.code == .missingValueTransformer)
        #expect(error.message.contains("'Book.cover' (transformer 'CoverTransformer')"))
        #expect(error.message.contains("'Page.content' (transformer 'ContentTransformer')"))
    }
}
