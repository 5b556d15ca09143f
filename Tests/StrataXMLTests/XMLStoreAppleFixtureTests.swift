import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataXML

/// XML stores written by Apple's Core Data (Xcode's `xcmapping.xml` files) open in Strata.
///
/// Their entities' version hashes come from Xcode's private model, which no public source
/// describes fully, so a model written here cannot reproduce them: opening through a
/// coordinator first gives `incompatibleModel`. The tests read every object through the store
/// with the model given, and then, after recording this model's hashes in a copy's metadata,
/// open the copy through a coordinator and walk its graph.
@Suite struct XMLStoreAppleFixtureTests {
    let directory: TemporaryDirectory

    init() throws { directory = try TemporaryDirectory() }

    @Test(arguments: XcodeMappingModel.fixtures)
    func everyObjectOfAnAppleStoreReads(_ fixture: XcodeMappingModel.Fixture) throws {
        let url = try fixture.copy(into: directory.url)
        let original = try Data(contentsOf: url)
        let contents = try #require(try XMLStore(fileURL: url, model: XcodeMappingModel.model).load())
        let counts = Dictionary(grouping: contents.nodes, by: \.snapshot.objectID.entityName).mapValues(\.count)
        #expect(counts == fixture.counts.filter { $0.value > 0 })
        #expect(contents.metadata.versionHashes.count == 5)
        #expect(contents.metadata.versionHashesVersion == 3)
        let nodes = Dictionary(uniqueKeysWithValues: contents.nodes.map { ($0.snapshot.objectID, $0) })
        for node in contents.nodes where node.snapshot.objectID.entityName == "XDDevEntityMapping" {
            #expect(node.snapshot.values["mappingNumber"]?.attributeType == .integer16)
            let members =
                node.toManyRelationships["attributeMappings", default: []]
                + node.toManyRelationships["relationshipMappings", default: []]
            for member in members {
                #expect(nodes[member]?.snapshot.values["entityMapping"] == .objectID(node.snapshot.objectID))
            }
        }
        #expect(try Data(contentsOf: url) == original)
    }

    @Test func theValuesOfAnAppleStoreReadAsWritten() throws {
        let url = try XcodeMappingModel.fixtures[4].copy(into: directory.url)
        let contents = try #require(try XMLStore(fileURL: url, model: XcodeMappingModel.model).load())
        #expect(contents.metadata.storeIdentifier == "498313E6-D672-4887-A947-08765F4F1012")
        #expect(contents.metadata.frameworkVersion == "Core Data 1044")
        #expect(contents.nextReference == 134)
        let sportCar = try #require(contents.nodes.first { $0.snapshot.objectID.reference == .integer(103) })
        #expect(sportCar.snapshot.objectID.entityName == "XDDevEntityMapping")
        #expect(sportCar.snapshot.values["sourceName"] == "SportCar")
        #expect(sportCar.snapshot.values["migrationPolicyClassName"] == "REPLACE_AT_RUNTIME.V2to3MakerPolicy")
        #expect(sportCar.snapshot.values["mappingNumber"] == .integer16(4))
        #expect(sportCar.snapshot.values["autogenerateExpression"] == true)
        #expect(
            sportCar.toManyRelationships["attributeMappings"]?.map(\.reference) == [
                .integer(114), .integer(113), .integer(133),
            ])
        let mappingModel = try #require(contents.nodes.first { $0.snapshot.objectID.entityName == "XDDevMappingModel" })
        guard case .binary(let data) = mappingModel.snapshot.values["sourceModelData"] else {
            Issue.record("The mapping model's source model data is not binary.")
            return
        }
        #expect(data.starts(with: Data("bplist00".utf8)))
    }

    @Test func aModelThatLacksAPropertyOfAnAppleStoreIsAnotherModel() throws {
        let url = try XcodeMappingModel.fixtures[4].copy(into: directory.url)
        let model = ManagedObjectModel {
            EntityDescription("XDDevMappingModel") {
                AttributeDescription("sourceModelData", .binary)
                RelationshipDescription.toMany(
                    "entityMappings", destination: "XDDevEntityMapping", inverse: "mappingModel")
            }
            EntityDescription("XDDevEntityMapping") {
                RelationshipDescription.toOne(
                    "mappingModel", destination: "XDDevMappingModel", inverse: "entityMappings")
            }
        }
        #expect {
            _ = try XMLStore(fileURL: url, model: model).load()
        } throws: { error in
            guard let error = error as? StoreError else { return false }
            return error.code == .incompatibleModel && error.message.contains("written with another model")
        }
    }

    @Test func anAppleStoreOpensThroughACoordinatorOnceItRecordsTheModel() throws {
        let url = try XcodeMappingModel.fixtures[4].copy(into: directory.url)
        let model = XcodeMappingModel.model
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.xml(model: model)])
        #expect {
            try coordinator.addStore(type: StoreType.xml.name, at: url)
        } throws: { ($0 as? StoreError)?.code == .incompatibleModel }
        let recorded = try #require(try coordinator.metadataForStore(type: StoreType.xml.name, at: url))
        try coordinator.setMetadata(
            StoreMetadata(storeType: StoreType.xml.name, storeIdentifier: recorded.storeIdentifier, model: model),
            forStoreOfType: StoreType.xml.name, at: url)
        try coordinator.addStore(type: StoreType.xml.name, at: url)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait {
            var request = FetchRequest<ManagedObject>(entityName: "XDDevEntityMapping")
            request.predicate = try FetchPredicate(format: "sourceName == %@", "SportCar")
            let sportCar = try #require(try context.fetch(request).first)
            #expect(try sportCar.objects(forKey: "attributeMappings").count == 3)
            let owner = try #require(try sportCar.object(forKey: "mappingModel"))
            #expect(try owner.objects(forKey: "entityMappings").count == 5)
            let properties = try context.count(for: FetchRequest<ManagedObject>(entityName: "XDDevPropertyMapping"))
            #expect(properties == 26)
        }
    }
}
