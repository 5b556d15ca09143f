import Foundation
import Testing

@testable import Strata

/// Messages name a store file by its path and a store on a server by its URL without the
/// password.
@Suite struct URLNameInMessagesTests {
    @Test func aFileIsNamedByItsPath() {
        #expect(URL(fileURLWithPath: "/tmp/Library.sqlite").nameInMessages == "/tmp/Library.sqlite")
    }

    @Test func aServerURLIsNamedWithItsPasswordMasked() throws {
        let url = try #require(URL(string: "postgresql://app:s3cret@db.example.com:5432/library?schema=catalog"))
        #expect(url.nameInMessages == "postgresql://app:***@db.example.com:5432/library?schema=catalog")
        let description = PersistentStoreDescription(type: "PostgreSQL", url: url, configuration: "Catalog")
        #expect(description.description.contains("db.example.com:5432/library?schema=catalog"))
        #expect(!description.description.contains("s3cret"))
    }
}
