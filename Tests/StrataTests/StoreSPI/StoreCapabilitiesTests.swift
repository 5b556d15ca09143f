import Strata
import Testing

@Suite struct StoreCapabilitiesTests {
    @Test func everyCapabilityHasAName() {
        #expect(StoreCapabilities.named.map(\.name) == ["multiProcessAccess", "relaxedDurability"])
        let all = StoreCapabilities.named.reduce(into: StoreCapabilities()) { $0.insert($1.capability) }
        #expect(all == [.multiProcessAccess, .relaxedDurability])
    }

    @Test func namesComeInDeclarationOrder() {
        #expect(
            StoreCapabilities([.relaxedDurability, .multiProcessAccess]).names == [
                "multiProcessAccess", "relaxedDurability",
            ])
        #expect(StoreCapabilities().description == "none")
        #expect(StoreCapabilities.multiProcessAccess.description == "multiProcessAccess")
    }
}
