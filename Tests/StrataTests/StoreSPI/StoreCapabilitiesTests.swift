import Strata
import Testing

@Suite struct StoreCapabilitiesTests {
    @Test func everyCapabilityHasAName() {
        #expect(
            StoreCapabilities.named.map(\.name) == ["concurrentReaders", "multiProcessAccess", "relaxedDurability"])
        let all = StoreCapabilities.named.reduce(into: StoreCapabilities()) { $0.insert($1.capability) }
        #expect(all == [.concurrentReaders, .multiProcessAccess, .relaxedDurability])
    }

    @Test func namesComeInDeclarationOrder() {
        #expect(
            StoreCapabilities([.relaxedDurability, .concurrentReaders]).names == [
                "concurrentReaders", "relaxedDurability",
            ])
        #expect(StoreCapabilities().description == "none")
        #expect(StoreCapabilities.multiProcessAccess.description == "multiProcessAccess")
    }
}
