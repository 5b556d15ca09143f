import CStrataSQLite
import Foundation
import Strata
import Testing

@testable import StrataSQLite

/// Strata saves into Apple-made stores the way Core Data does: new rows numbered from
/// `Z_PRIMARYKEY`, `Z_OPT` counting changes, and Core Data's own triggers (derived attributes)
/// left to do their work. What was written is read back here with SQLite's C API.
@Suite struct SQLiteStoreFixtureWriteTests {
    /// The integers one query returns, row after row, read with the C API.
    static func integers(_ sql: String, in url: URL) throws -> [Int64] {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let handle else {
            throw CocoaError(.fileReadCorruptFile)
        }
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else {
            throw CocoaError(.fileReadCorruptFile)
        }
        defer { sqlite3_finalize(statement) }
        var result: [Int64] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            for column in 0..<sqlite3_column_count(statement) { result.append(sqlite3_column_int64(statement, column)) }
        }
        return result
    }

    static func storeCase(_ name: String) throws -> VersionHashFixtureTests.StoreCase {
        try #require(VersionHashFixtureTests.cases.first { $0.store.hasSuffix("/" + name) })
    }

    /// Opens a copy of the fixture `name` in a coordinator with its model.
    static func open(_ name: String, in directory: TemporaryDirectory) throws -> (URL, ManagedObjectContext) {
        let storeCase = try storeCase(name)
        let url = try directory.copyStore(storeCase.store)
        let model = try storeCase.loadModel()
        let coordinator = try PersistentStoreCoordinator.fixture(model)
        try coordinator.addStore(type: StoreType.sqlite.name, at: url)
        return (url, ManagedObjectContext(coordinator: coordinator))
    }

    /// Saves a new page 1000 of the book "title 2 - author 2" of `SampleModel2`; returns its ID.
    static func savePage(in context: ManagedObjectContext) throws -> ObjectID {
        var request = FetchRequest<ManagedObject>(entityName: "Book")
        request.predicate = try FetchPredicate(format: "title == %@", "title 2 - author 2")
        let book = try #require(try context.fetch(request).first)
        let page = try context.insertNewObject(forEntityName: "Page")
        try page.setValue(.integer32(1000), forKey: "number")
        try page.setValue(.binary(Data("a new page".utf8)), forKey: "content")
        try page.setObject(book, forKey: "book")
        try context.save()
        return page.objectID
    }

    @Test func savesIntoTheStoreWhoseRowsAreAllInItsWriteAheadLog() async throws {
        let directory = try TemporaryDirectory()
        let (url, context) = try Self.open("CoreDataMigration_Example_WAL.sqlite", in: directory)
        #expect(try Self.integers("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Post'", in: url) == [84])
        let firstPost = try Self.integers("SELECT Z_PK, Z_OPT FROM ZPOST ORDER BY ZPOSTID LIMIT 1", in: url)
        let changed = try await context.perform {
            var request = FetchRequest<ManagedObject>(entityName: "Post")
            request.sortDescriptors = [FetchSortDescriptor("postID")]
            let first = try #require(try context.fetch(request).first)
            try first.setValue(true, forKey: "hide")
            let color = try context.insertNewObject(forEntityName: "Color")
            try color.setValue("#123456", forKey: "hex")
            try color.setValue("new", forKey: "colorID")
            let post = try context.insertNewObject(forEntityName: "Post")
            try post.setValue("new", forKey: "postID")
            try post.setValue(false, forKey: "hide")
            try post.setObject(color, forKey: "color")
            try context.save()
            guard case .integer(let key) = first.objectID.reference else { return Int64(0) }
            return key
        }
        #expect(
            try Self.integers("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME IN ('Post', 'Color')", in: url) == [85, 85])
        #expect(firstPost.first == changed)
        #expect(try Self.integers("SELECT Z_OPT FROM ZPOST WHERE Z_PK = \(changed)", in: url) == [firstPost[1] + 1])
        #expect(try Self.integers("SELECT ZHIDE FROM ZPOST WHERE Z_PK = \(changed)", in: url) == [1])
        #expect(try Self.integers("SELECT ZCOLOR FROM ZPOST WHERE ZPOSTID = 'new'", in: url) == [85])
        #expect(try Self.integers("SELECT ZPOST FROM ZCOLOR WHERE ZCOLORID = 'new'", in: url) == [85])
        #expect(try Self.integers("SELECT Z_OPT FROM ZPOST WHERE ZPOSTID = 'new'", in: url) == [1])
    }

    @Test func coreDatasDerivedAttributeTriggersKeepCountingPages() async throws {
        let directory = try TemporaryDirectory()
        let (url, context) = try Self.open("SampleModel2_V1.sqlite", in: directory)
        let before = try Self.integers("SELECT ZPAGESCOUNT FROM ZBOOK WHERE Z_PK = 1", in: url)
        _ = try await context.perform { try Self.savePage(in: context) }
        #expect(before == [99])
        #expect(try Self.integers("SELECT ZPAGESCOUNT FROM ZBOOK WHERE Z_PK = 1", in: url) == [100])
        #expect(try Self.integers("SELECT COUNT(*) FROM ZPAGE WHERE ZBOOK = 1", in: url) == [100])
        #expect(try Self.integers("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Page'", in: url) == [4971])
    }
}
