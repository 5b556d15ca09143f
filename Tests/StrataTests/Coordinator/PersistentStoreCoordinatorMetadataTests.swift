import Foundation
import StrataTestSupport
import Testing

@testable import Strata

@Suite struct PersistentStoreCoordinatorMetadataTests {
    /// A coordinator that knows the JSON type, and the URL of a saved, removed JSON store in
    /// `folder`.
    private func closedStore(in folder: TemporaryDirectory) throws -> (PersistentStoreCoordinator, URL, String) {
        let coordinator = try PersistentStoreCoordinator(
            model: try CoordinatorFixtures.model(), storeTypes: [.jsonFile()])
        let url = folder.file("library.json")
        let store = try coordinator.addStore(type: "JSON", configuration: "Library", at: url)
        try CoordinatorFixtures.fill(store)
        try coordinator.remove(store)
        return (coordinator, url, store.identifier)
    }

    @Test func metadataIsReadWithoutOpeningTheStore() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, url, identifier) = try closedStore(in: folder)
        let metadata = try #require(try coordinator.metadataForStore(type: "JSON", at: url))
        #expect(metadata.storeType == "JSON" && metadata.storeIdentifier == identifier)
        #expect(coordinator.model.isConfiguration("Library", compatibleWithStoreMetadata: metadata))
        #expect(coordinator.stores.isEmpty)
    }

    @Test func thereIsNoMetadataWithoutAFile() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, _, _) = try closedStore(in: folder)
        #expect(try coordinator.metadataForStore(type: "JSON", at: folder.file("none.json")) == nil)
        #expect(try coordinator.metadataForStore(type: StoreType.inMemory.name, at: folder.file("none")) == nil)
        #expect { try coordinator.metadataForStore(type: "XML", at: folder.file("none.xml")) } throws: {
            ($0 as? StoreError)?.code == .unknownStoreType
        }
    }

    @Test func writtenUserKeysAreReadBack() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, url, identifier) = try closedStore(in: folder)
        var metadata = try #require(try coordinator.metadataForStore(type: "JSON", at: url))
        metadata.userInfo = ["owner": "Ada", "schemaRevision": .integer64(7)]
        try coordinator.setMetadata(metadata, forStoreOfType: "JSON", at: url)

        let read = try #require(try coordinator.metadataForStore(type: "JSON", at: url))
        #expect(read.userInfo == ["owner": "Ada", "schemaRevision": .integer64(7)])
        #expect(read.storeIdentifier == identifier)
        let reopened = try coordinator.addStore(type: "JSON", configuration: "Library", at: url)
        #expect(reopened.metadata.userInfo["owner"] == "Ada")
        #expect(try CoordinatorFixtures.contents(of: reopened, model: coordinator.model).count == 7)
    }

    @Test func userKeysOfAnAddedStoreAreSavedLiveAndKeptAfterReopening() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, url, identifier) = try closedStore(in: folder)
        let store = try coordinator.addStore(type: "JSON", configuration: "Library", at: url)
        try coordinator.setUserInfo(["owner": "Ada"], for: store)
        #expect(store.metadata.userInfo == ["owner": "Ada"])
        #expect(store.metadata.storeIdentifier == identifier)
        try coordinator.remove(store)

        #expect(try coordinator.metadataForStore(type: "JSON", at: url)?.userInfo == ["owner": "Ada"])
        let reopened = try coordinator.addStore(type: "JSON", configuration: "Library", at: url)
        #expect(reopened.metadata.userInfo == ["owner": "Ada"])
        #expect(try CoordinatorFixtures.contents(of: reopened, model: coordinator.model).count == 7)
        #expect { try coordinator.setUserInfo([:], for: store) } throws: {
            ($0 as? StoreError)?.code == .unknownStore
        }
    }

    @Test func anAddedStoreIsNeitherRewrittenNorDestroyed() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, url, _) = try closedStore(in: folder)
        let metadata = try #require(try coordinator.metadataForStore(type: "JSON", at: url))
        try coordinator.addStore(type: "JSON", configuration: "Library", at: url)
        let before = try Data(contentsOf: url)
        #expect {
            try coordinator.setMetadata(metadata, forStoreOfType: "JSON", at: url)
        } throws: { error in
            (error as? StoreError)?.code == .inUse && (error as? StoreError)?.message.contains(url.path) == true
        }
        #expect { try coordinator.destroyStore(type: "JSON", at: url) } throws: {
            ($0 as? StoreError)?.code == .inUse
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(try coordinator.metadataForStore(type: "JSON", at: url) == metadata)
    }

    @Test func destroyingRemovesTheFile() throws {
        let folder = try TemporaryDirectory()
        let (coordinator, url, _) = try closedStore(in: folder)
        try coordinator.destroyStore(type: "JSON", at: url)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        #expect(try coordinator.metadataForStore(type: "JSON", at: url) == nil)
        try coordinator.destroyStore(type: "JSON", at: url)
    }
}
