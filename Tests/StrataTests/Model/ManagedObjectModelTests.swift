import Foundation
import Testing

@testable import Strata

@Suite struct ManagedObjectModelTests {
    @Test func frozenModelResolvesInheritance() throws {
        let model = SampleModels.garage()
        try model.freeze()
        let car = try #require(model.schema.entitiesByName["Car"])
        #expect(car.superentityNames == ["Vehicle"])
        #expect(car.rootEntityName == "Vehicle")
        #expect(car.attributes.map(\.name) == ["numberPlate", "built", "seats", "price"])
        #expect(car.attributesByName["numberPlate"]?.isOptional == false)
        #expect(car.isKind(of: "Vehicle") && !car.isKind(of: "Person"))
        let vehicle = try #require(model.schema.entitiesByName["Vehicle"])
        #expect(vehicle.subentityNames == ["Car"] && vehicle.descendantNames == ["Car"])
        #expect(model.entity(named: "Car")?.attributes.map(\.name) == ["seats", "price"])
    }

    @Test func frozenModelIsSharedAcrossTasks() async throws {
        let model = SampleModels.garage()
        try model.freeze()
        let hashes = await withTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<8 { group.addTask { model.schema.entitiesByName["Person"]!.versionHash } }
            return await group.reduce(into: Set<[UInt8]>()) { $0.insert($1) }
        }
        #expect(hashes.count == 1)
    }

    @Test func editingBeforeFreezingIsAllowed() throws {
        let model = SampleModels.garage()
        model.entities.append(EntityDescription("Extra"))
        model.versionIdentifiers = ["3"]
        try model.freeze()
        #expect(model.schema.entitiesByName["Extra"] != nil)
    }

    @Test func mergingUnitesEntitiesAndConfigurations() throws {
        let first = ManagedObjectModel(versionIdentifiers: ["a"]) {
            EntityDescription("A")
            ConfigurationDescription("Shared", entities: ["A"])
            FetchRequestTemplate(name: "all", entityName: "A")
        }
        let second = ManagedObjectModel(versionIdentifiers: ["a", "b"]) {
            EntityDescription("B")
            ConfigurationDescription("Shared", entities: ["B"])
            ConfigurationDescription("Own", entities: ["B"])
        }
        try first.freeze()
        let merged = try ManagedObjectModel(merging: [first, second])
        #expect(!merged.isFrozen)
        #expect(merged.entities.map(\.name) == ["A", "B"])
        #expect(merged.configurations == ["Shared": ["A", "B"], "Own": ["B"]])
        #expect(merged.fetchRequestTemplates.map(\.name) == ["all"])
        #expect(merged.versionIdentifiers == ["a", "b"])
        try merged.freeze()
    }

    @Test func mergingRefusesDuplicateEntitiesAndTemplates() {
        let a = ManagedObjectModel { EntityDescription("Same") }
        let b = ManagedObjectModel { EntityDescription("Same") }
        #expect {
            try ManagedObjectModel(merging: [a, b])
        } throws: { error in
            (error as? ModelError)?.code == .incompatibleModels
                && (error as? ModelError)?.message.contains("'Same'") == true
        }
        let c = ManagedObjectModel { FetchRequestTemplate(name: "t", entityName: "X") }
        let d = ManagedObjectModel { FetchRequestTemplate(name: "t", entityName: "Y") }
        #expect(throws: ModelError.self) { try ManagedObjectModel(merging: [c, d]) }
    }

    @Test func transformerRegistryFindsMissingTransformers() throws {
        let model = ManagedObjectModel {
            EntityDescription("A") {
                AttributeDescription("tags", .transformable).transformed(by: "Tags")
                AttributeDescription("color", .transformable).transformed(by: "Color")
            }
        }
        var registry = ValueTransformerRegistry()
        registry.register(JSONValueTransformer<[String]>(), named: "Tags")
        #expect(registry.missingTransformers(in: model) == ["A.color"])
        #expect(registry.names == ["NSKeyedUnarchiveFromData", "NSSecureUnarchiveFromData", "Tags"])
        let transformer = try #require(registry.transformer(named: "Tags"))
        let data = try transformer.data(from: ["a", "b"])
        #expect(try transformer.value(from: data) as? [String] == ["a", "b"])
        #expect(throws: ValueTransformerError.self) { try transformer.data(from: 3) }
    }
}
