import Foundation
import Strata
import StrataSQLite
import StrataSearch
import StrataTestSupport
import Testing

/// The search index file: entries found ranked, with snippets and by prefix; replaced and
/// removed by URI; the position kept with the entries; bad queries and bad files typed.
@Suite struct SearchIndexTests {
    static func uri(_ number: Int) -> URL { URL(string: "x-coredata://STORE/Photo/p\(number)")! }

    static func photos(in folder: TemporaryDirectory) throws -> SearchIndex {
        let index = try SearchIndex(at: folder.file("Photos.search"))
        try index.apply(
            upserting: [
                .init(uri: uri(1), entityName: "Photo", title: "Taj Mahal", text: "A photo from India at dawn"),
                .init(uri: uri(2), entityName: "Photo", title: "Kerala", text: "Backwaters", keywords: ["india"]),
                .init(uri: uri(3), entityName: "Photo", title: "Lisbon", text: "A tram in the old town"),
            ], removing: [], position: Data("token-1".utf8))
        return index
    }

    @Test func aSearchFindsEveryTermRankedWithSnippets() throws {
        let folder = try TemporaryDirectory()
        let index = try Self.photos(in: folder)
        let hits = try index.search("photo india")
        #expect(hits.map(\.uri) == [Self.uri(1)])
        #expect(hits.first?.snippet.contains("[photo]") == true, "\(hits)")
        #expect(hits.first?.title == "Taj Mahal" && hits.first?.entityName == "Photo")
        let india = try index.search("INDIA")
        #expect(Set(india.map(\.uri)) == [Self.uri(1), Self.uri(2)])
        #expect(india.allSatisfy { $0.score > 0 })
        #expect(try index.search("lis*").map(\.uri) == [Self.uri(3)])
        #expect(try index.search("india", limit: 1).count == 1)
        #expect(try index.search("nowhere").isEmpty)
    }

    @Test func entriesAreReplacedAndRemovedByURIWithThePositionInOneStep() throws {
        let folder = try TemporaryDirectory()
        let index = try Self.photos(in: folder)
        try index.apply(
            upserting: [.init(uri: Self.uri(3), entityName: "Photo", title: "Porto", text: "A bridge")],
            removing: [Self.uri(1)], position: Data("token-2".utf8))
        #expect(try index.count() == 2)
        #expect(try index.search("lisbon").isEmpty)
        #expect(try index.search("porto").map(\.uri) == [Self.uri(3)])
        #expect(try index.search("taj").isEmpty)
        let reopened = try SearchIndex(at: folder.file("Photos.search"))
        #expect(try reopened.position() == Data("token-2".utf8))
        #expect(try reopened.count() == 2)
        try reopened.removeAll()
        #expect(try reopened.count() == 0 && reopened.position() == nil)
    }

    @Test(arguments: ["\"unbalanced", "AND", "photo NOT", "(india"])
    func aBadQueryIsATypedErrorNamingIt(_ query: String) throws {
        let folder = try TemporaryDirectory()
        let index = try Self.photos(in: folder)
        #expect {
            try index.search(query)
        } throws: { error in
            let error = error as? SearchError
            return error?.code == .invalidQuery && error?.message.contains(query) == true
        }
    }

    @Test func aFileThatIsNotAnIndexIsATypedError() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("notes.search")
        try Data(repeating: 0x41, count: 4096).write(to: url)
        #expect {
            try SearchIndex(at: url)
        } throws: { error in
            (error as? SearchError)?.code == .corrupt && (error as? SearchError)?.message.contains(url.path) == true
        }
    }

    @Test func aHitsURIResolvesToTheObjectItIndexed() throws {
        let model = ManagedObjectModel {
            EntityDescription("Photo") { AttributeDescription("title", .string).indexedForSearch() }
        }
        let coordinator = try PersistentStoreCoordinator(model: model)
        try coordinator.addStore(.inMemory())
        let context = ManagedObjectContext(coordinator: coordinator)
        let id = try context.performAndWait {
            let photo = try context.insertNewObject(forEntityName: "Photo")
            try photo.setValue(.string("Taj Mahal"), forKey: "title")
            try context.save()
            return photo.objectID
        }
        let folder = try TemporaryDirectory()
        let index = try SearchIndex(at: folder.file("Photos.search"))
        try index.apply(
            upserting: [.init(uri: id.uriRepresentation, entityName: "Photo", title: "Taj Mahal")], removing: [],
            position: nil)
        let hit = try #require(try index.search("mahal").first)
        #expect(coordinator.objectID(forURIRepresentation: hit.uri) == id)
    }
}

extension SearchIndexTests {
    @Test func anEntryWhoseURIIsNotOneIsACorruptIndexNotAWrongHit() throws {
        let folder = try TemporaryDirectory()
        let index = try Self.photos(in: folder)
        let connection = try SQLiteConnection(path: folder.file("Photos.search").path, mode: .readWrite)
        try connection.execute(script: "UPDATE objects SET uri = 'not a uri' WHERE uri LIKE '%/p3'")
        #expect {
            try index.search("lisbon")
        } throws: { error in
            let error = error as? SearchError
            return error?.code == .corrupt && error?.message.contains("'not a uri'") == true
        }
    }
}

extension SearchIndexTests {
    @Test func anIndexOfTheEarlierLayoutIsMadeAnewAndAnotherDatabaseRefused() throws {
        let folder = try TemporaryDirectory()
        let earlier = folder.file("earlier.search")
        let old = try SQLiteConnection(path: earlier.path, mode: .readWriteCreate)
        try old.execute(
            script: """
                CREATE VIRTUAL TABLE entries USING fts5(title, text, keywords);
                CREATE TABLE objects (uri TEXT PRIMARY KEY, entry INTEGER NOT NULL, entity TEXT NOT NULL);
                CREATE TABLE state (key TEXT PRIMARY KEY, value BLOB);
                INSERT INTO state VALUES ('position', x'01');
                """)
        let index = try SearchIndex(at: earlier)
        #expect(try index.position() == nil && index.count() == 0)
        try index.apply(
            upserting: [.init(uri: Self.uri(1), entityName: "Photo", title: "Porto")], removing: [], position: nil)
        #expect(try index.search("porto").map(\.uri) == [Self.uri(1)])

        let other = folder.file("notes.sqlite")
        try SQLiteConnection(path: other.path, mode: .readWriteCreate).execute(
            script: "CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me');")
        #expect {
            try SearchIndex(at: other)
        } throws: { error in
            let error = error as? SearchError
            return error?.code == .corrupt && error?.message.contains("notes") == true
        }
        let rows = try SQLiteConnection(path: other.path, mode: .readWrite).cachedStatement("SELECT body FROM notes")
            .rows { $0.value(at: 0) }
        #expect(rows == [.text("keep me")], "A database that is not an index is left alone")
    }
}
