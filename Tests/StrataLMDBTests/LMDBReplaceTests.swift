import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataLMDB

/// Replacing a store copies another store's objects and metadata into it in one transaction.
@Suite struct LMDBReplaceTests {
    @Test func anExistingStoreTakesTheSourcesObjectsAndMetadata() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("source.lmdb")
        let destination = directory.file("destination.lmdb")
        let sourceIdentifier: String
        do {
            let store = try LMDBTestModel.open(source)
            try LMDBTestModel.insertPlayers(30, into: store)
            sourceIdentifier = store.identifier
            try LMDBTestModel.insertPlayers(5, into: try LMDBTestModel.open(destination))
        }
        let sourceBytes = try Data(contentsOf: source)
        let coordinator = try PersistentStoreCoordinator(model: LMDBTestModel.model, storeTypes: [.lmdb])
        try coordinator.replaceStore(type: StoreType.lmdb.name, at: destination, withStoreFrom: source)
        #expect(try Data(contentsOf: source) == sourceBytes)
        let replaced = try LMDBTestModel.open(destination)
        #expect(replaced.identifier == sourceIdentifier)
        #expect(try replaced.execute(StoreFetchRequest(entityName: "Player", resultType: .count)) == .count(30))
        #expect(try LMDBTestModel.ids(replaced, "score == 7").count == 1)
        let next = try replaced.permanentIDs(forEntities: ["Player"])
        #expect(next.first.flatMap(LMDBLayout.primaryKey(of:)) == 31)
    }

    @Test func aMissingDestinationIsCreatedAndAMissingSourceRefused() throws {
        let directory = try TemporaryDirectory()
        let source = directory.file("source.lmdb")
        let destination = directory.file("new.lmdb")
        do { try LMDBTestModel.insertPlayers(4, into: try LMDBTestModel.open(source)) }
        try LMDBStoreFile.replace(destination.path, withStoreAt: source.path)
        let copy = try LMDBTestModel.open(destination)
        #expect(try copy.execute(StoreFetchRequest(entityName: "Player", resultType: .count)) == .count(4))
        let error = #expect(throws: StoreError.self) {
            try LMDBStoreFile.replace(destination.path, withStoreAt: directory.file("none.lmdb").path)
        }
        #expect(error?.code == .unknownObject)
        try LMDBStoreFile.replace(destination.path, withStoreAt: destination.path)
        #expect(try copy.execute(StoreFetchRequest(entityName: "Player", resultType: .count)) == .count(4))
    }
}
