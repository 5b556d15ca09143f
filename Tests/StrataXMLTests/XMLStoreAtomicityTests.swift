import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataXML

/// A save that fails part-way leaves the old file as it was and nothing beside it.
@Suite struct XMLStoreAtomicityTests {
    @Test func aSaveThatFailsPartWayLeavesTheOldFile() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.xml")
        let store = XMLStore(fileURL: url)
        try store.write(LibraryGraph.contents(authors: 2, booksEach: 2))
        let saved = try Data(contentsOf: url)
        var contents = LibraryGraph.contents(authors: 50, booksEach: 2)
        let last = contents.nodes.count - 1
        contents.nodes[last].snapshot.objectID.reference = .string("no number")
        #expect {
            try store.write(contents)
        } throws: { ($0 as? StoreError)?.code == .unsupported }
        #expect(try Data(contentsOf: url) == saved)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["library.xml"])
    }
}
