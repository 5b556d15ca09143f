import Foundation
import Strata
import StrataSQLite
import Testing

/// The derived attribute of Core Data's `SampleModel2` (`Book.pagesCount`, `count:(pages)`):
/// Strata reads the values Core Data's triggers kept, computes the same ones, and keeps them
/// current beside the triggers.
@Suite struct DerivedAttributeFixtureTests {
    @Test func everyBookReadsAndRecomputesTheCountCoreDataStored() throws {
        let directory = try TemporaryDirectory()
        let (_, context) = try SQLiteStoreFixtureWriteTests.open("SampleModel2_V1.sqlite", in: directory)
        try context.performAndWait {
            let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
            #expect(books.count == 52)
            let derivation = try FetchExpression(format: "pages.@count")
            for book in books {
                let stored = try book.value(forKey: "pagesCount")
                #expect(stored == .integer64(Int64(try book.objects(forKey: "pages").count)))
                #expect(try derivation.value(with: book) == stored)
            }
        }
    }

    @Test func aSavedPageCountsOnceInTheContextAndInTheFile() throws {
        let directory = try TemporaryDirectory()
        let (url, context) = try SQLiteStoreFixtureWriteTests.open("SampleModel2_V1.sqlite", in: directory)
        try context.performAndWait {
            let pageID = try SQLiteStoreFixtureWriteTests.savePage(in: context)
            let book = try #require(try context.existingObject(with: pageID).object(forKey: "book"))
            #expect(book.objectID.uriString.hasSuffix("/Book/p1"))
            #expect(try book.value(forKey: "pagesCount") == .integer64(100))
            let stored = try SQLiteStoreFixtureWriteTests.integers(
                "SELECT ZPAGESCOUNT FROM ZBOOK WHERE Z_PK = 1", in: url)
            #expect(stored == [100])
        }
    }
}
