import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

@testable import StrataBinary
@testable import StrataLMDB
@testable import StrataSQLite
@testable import StrataXML

/// Each store type reads its file's format version without opening the store, and refuses
/// a file that is not one of its stores with a typed error.
@Suite struct StoreFormatVersionTests {
    @Test func eachTypeReadsTheVersionItWrites() throws {
        let directory = try TemporaryDirectory()
        var urls: [String: URL] = [:]
        for type in ["SQLite", "LMDB", "XML", "Binary"] {
            let url = directory.file("store.\(type.lowercased())")
            try ContainerModel.writeStore(type: type, at: url)
            urls[type] = url
        }
        let sqlite = try SQLiteStoreFileFormat(ofStoreAt: try #require(urls["SQLite"]))
        #expect(sqlite.metadataVersion == 1)
        #expect(sqlite.versionHashesVersion == 3)
        #expect(sqlite.coreDataFrameworkVersion == 1344)
        #expect(sqlite.journalMode == "wal")
        #expect(sqlite.tables.contains("Z_METADATA") && sqlite.tables.contains("Z_PRIMARYKEY"))
        #expect(try LMDBStore.formatVersion(ofStoreAt: try #require(urls["LMDB"])) == 1)
        #expect(try XMLStore.formatVersion(ofStoreAt: try #require(urls["XML"])) == 134_481_920)
        #expect(try BinaryStore.formatVersion(ofStoreAt: try #require(urls["Binary"])) == BinaryStoreFormat.version)
    }

    @Test func aFileOfAnotherKindIsCorruptAndAMissingOneIsIO() throws {
        let directory = try TemporaryDirectory()
        let text = directory.file("notes.txt")
        try Data("<?xml version=\"1.0\"?>\n<database><object/></database>".utf8).write(to: text)
        let readers: [(URL) throws -> Void] = [
            { _ = try SQLiteStoreFileFormat(ofStoreAt: $0) }, { _ = try LMDBStore.formatVersion(ofStoreAt: $0) },
            { _ = try XMLStore.formatVersion(ofStoreAt: $0) }, { _ = try BinaryStore.formatVersion(ofStoreAt: $0) },
        ]
        for read in readers {
            let foreign = try #require(throws: StoreError.self) { try read(text) }
            #expect(foreign.code == .corrupt, "\(foreign)")
            #expect(foreign.message.contains("notes.txt"))
            let missing = try #require(throws: StoreError.self) { try read(directory.file("none")) }
            #expect(missing.code == .io, "\(missing)")
        }
    }
}
