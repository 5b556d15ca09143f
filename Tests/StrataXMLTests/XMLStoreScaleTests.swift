import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataXML

/// Large graphs and large values save and load in one streaming pass each way.
@Suite struct XMLStoreScaleTests {
    @Test func aHundredThousandObjectsSaveAndLoad() throws {
        let directory = try TemporaryDirectory()
        let store = XMLStore(fileURL: directory.file("large.xml"))
        let contents = LibraryGraph.contents(authors: 20_000, booksEach: 4)
        #expect(contents.nodes.count == 100_000)
        try store.write(contents)
        let loaded = try #require(try store.load())
        #expect(loaded.nodes.count == 100_000)
        #expect(loaded.nextReference == 100_001)
        let byID = Dictionary(uniqueKeysWithValues: loaded.nodes.map { ($0.snapshot.objectID, $0) })
        for node in contents.nodes.prefix(10) + contents.nodes.suffix(10) {
            let read = try #require(byID[node.snapshot.objectID])
            #expect(read.snapshot.version == node.snapshot.version)
            #expect(read.toManyRelationships["books", default: []] == node.toManyRelationships["books", default: []])
            for (key, value) in node.snapshot.values { #expect(read.snapshot.values[key] == value) }
        }
    }

    @Test func aValueLargerThanLibxml2sDefaultTextLimitReadsBack() throws {
        let directory = try TemporaryDirectory()
        let store = XMLStore(fileURL: directory.file("cover.xml"))
        var contents = LibraryGraph.contents(authors: 1, booksEach: 1)
        let cover = Data(repeating: 0xA5, count: 12_000_000)
        contents.nodes[1].snapshot.values["cover"] = .binary(cover)
        try store.write(contents)
        let loaded = try #require(try store.load())
        #expect(
            loaded.nodes.first { $0.snapshot.objectID == contents.nodes[1].snapshot.objectID }?.snapshot.values["cover"]
                == .binary(cover))
    }
}
