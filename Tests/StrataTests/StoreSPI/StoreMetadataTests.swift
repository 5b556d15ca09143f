import Foundation
import Testing

@testable import Strata

@Suite struct StoreMetadataTests {
    private func model(postAttribute: String = "title") throws -> ManagedObjectModel {
        let model = ManagedObjectModel(versionIdentifiers: ["3"]) {
            EntityDescription("Post") { AttributeDescription(postAttribute, .string) }
            EntityDescription("Tag") { AttributeDescription("name", .string) }
            EntityDescription("Cache") { AttributeDescription("blob", .binary) }
            ConfigurationDescription("Content", entities: ["Post", "Tag"])
            ConfigurationDescription("Local", entities: ["Cache"])
        }
        try model.freeze()
        return model
    }

    @Test func metadataRoundTripsThroughJSONKeyedByItsPropertyNames() throws {
        let metadata = StoreMetadata(
            storeType: "Journal", model: try model(), configuration: "Content",
            userInfo: [
                "app": "1.2", "stamp": .date(Date(timeIntervalSinceReferenceDate: 7.5)),
                "token": .binary(Data([0, 255])),
            ])
        let data = try JSONEncoder().encode(metadata)
        #expect(try JSONDecoder().decode(StoreMetadata.self, from: data) == metadata)
        let keys = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]).keys
        #expect(
            Set(keys) == [
                "storeType", "storeIdentifier", "versionHashes", "versionIdentifiers", "versionHashesVersion",
                "frameworkVersion", "modelJSON", "userInfo",
            ])
    }

    @Test func metadataRecordsTheModel() throws {
        let model = try model()
        let metadata = StoreMetadata(storeType: "InMemory", model: model, userInfo: ["app": "1.2"])
        #expect(metadata.versionHashes == model.schema.entityVersionHashes)
        #expect(metadata.versionIdentifiers == ["3"])
        #expect(metadata.versionHashesVersion == 3)
        #expect(metadata.frameworkVersion == StrataVersion.current)
        #expect(UUID(uuidString: metadata.storeIdentifier) != nil)
        #expect(metadata.userInfo == ["app": "1.2"])
        let embedded = try ManagedObjectModel(jsonData: try #require(metadata.modelJSON))
        #expect(embedded.entities == model.entities)
    }

    @Test func aConfigurationStoreRecordsOnlyItsEntities() throws {
        let model = try model()
        let metadata = StoreMetadata(storeType: "InMemory", model: model, configuration: "Content")
        #expect(Set(metadata.versionHashes.keys) == ["Post", "Tag"])
        #expect(model.isConfiguration("Content", compatibleWithStoreMetadata: metadata))
        #expect(
            model.compatibilityProblems(configuration: "Local", metadata: metadata) == [
                "Entity 'Cache' is in the model but not in the store."
            ])
        #expect(!model.isConfiguration(nil, compatibleWithStoreMetadata: metadata))
    }

    @Test func changedRemovedAndNewEntitiesAreNamed() throws {
        let old = StoreMetadata(storeType: "InMemory", model: try model(postAttribute: "heading"))
        let current = try model()
        #expect(
            current.compatibilityProblems(configuration: nil, metadata: old) == [
                "Entity 'Post' has changed since the store was written (its version hash differs)."
            ])
        var withGhost = StoreMetadata(storeType: "InMemory", model: current)
        withGhost.versionHashes["Ghost"] = [UInt8](repeating: 0, count: 32)
        #expect(
            current.compatibilityProblems(configuration: nil, metadata: withGhost) == [
                "Entity 'Ghost' is in the store but not in the model."
            ])
    }

    @Test func anotherHashLayoutIsIncompatible() throws {
        let model = try model()
        var metadata = StoreMetadata(storeType: "InMemory", model: model)
        metadata.versionHashesVersion = 4
        #expect(!model.isConfiguration(nil, compatibleWithStoreMetadata: metadata))
    }

    @Test func unknownConfigurationHoldsNoEntities() throws {
        #expect(try model().entityNames(inConfiguration: "Nope").isEmpty)
    }
}
