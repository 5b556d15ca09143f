import Strata
import Testing

@Suite struct StoreCapabilitiesTests {
    @Test func everyCapabilityHasAName() {
        #expect(
            StoreCapabilities.named.map(\.name) == [
                "queryGenerations", "persistentHistory", "multiProcessAccess", "batchOperations", "batchComputedValues",
                "externalBinaryStorage", "relaxedDurability", "crossStoreRelationships",
            ])
        let all = StoreCapabilities.named.reduce(into: StoreCapabilities()) { $0.insert($1.capability) }
        #expect(
            all == [
                .queryGenerations, .persistentHistory, .multiProcessAccess, .batchOperations, .batchComputedValues,
                .externalBinaryStorage, .relaxedDurability, .crossStoreRelationships,
            ])
    }

    @Test func namesComeInDeclarationOrder() {
        #expect(
            StoreCapabilities([.relaxedDurability, .multiProcessAccess, .queryGenerations]).names == [
                "queryGenerations", "multiProcessAccess", "relaxedDurability",
            ])
        #expect(StoreCapabilities().description == "none")
        #expect(StoreCapabilities.multiProcessAccess.description == "multiProcessAccess")
    }
}
