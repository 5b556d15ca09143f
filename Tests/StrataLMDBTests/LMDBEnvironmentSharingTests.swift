import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataLMDB

/// Stores, metadata reads and metadata writes on one file in one process share its environment.
@Suite struct LMDBEnvironmentSharingTests {
    @Test func metadataIsReadAndWrittenWhileARelaxedStoreIsOpen() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("shared.lmdb")
        let store = try LMDBTestModel.open(url, settings: ["relaxedDurability": "true"])
        try LMDBTestModel.insertPlayers(3, into: store)
        var metadata = try #require(try LMDBStoreFile.readMetadata(at: url.path))
        #expect(metadata.storeIdentifier == store.identifier)
        metadata.userInfo = ["owner": "Ada"]
        try LMDBStoreFile.writeMetadata(metadata, at: url.path)
        #expect(try LMDBStoreFile.readMetadata(at: url.path)?.userInfo == ["owner": "Ada"])
        #expect(try store.execute(StoreFetchRequest(entityName: "Player", resultType: .count)) == .count(3))
    }

    @Test func aReadOnlyStoreAndAWritingStoreOpenTogether() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("both.lmdb")
        do { try LMDBTestModel.insertPlayers(2, into: try LMDBTestModel.open(url)) }
        let reader = try LMDBTestModel.open(url, readOnly: true)
        let writer = try LMDBTestModel.open(url)
        #expect(reader.environment === writer.environment)
        try LMDBTestModel.insertPlayers(2, into: writer)
        #expect(try reader.execute(StoreFetchRequest(entityName: "Player", resultType: .count)) == .count(4))
    }

    @Test func aStoreMadeAgainAfterDestroyGetsItsOwnEnvironment() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("again.lmdb")
        let old = try LMDBTestModel.open(url)
        try LMDBTestModel.insertPlayers(2, into: old)
        try LMDBStoreFile.destroy(at: url.path)
        let new = try LMDBTestModel.open(url)
        #expect(new.environment !== old.environment)
        #expect(new.identifier != old.identifier)
        #expect(try new.execute(StoreFetchRequest(entityName: "Player", resultType: .count)) == .count(0))
    }
}
