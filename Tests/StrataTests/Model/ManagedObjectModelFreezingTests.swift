import Foundation
import Testing

@testable import Strata

/// Mutating a frozen model stops the program; these tests run that in a child process.
@Suite struct ManagedObjectModelFreezingTests {
    @Test func changingEntitiesOfAFrozenModelStops() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let model = ManagedObjectModel { EntityDescription("A") }
            try model.freeze()
            model.entities = []
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Cannot change 'entities' of a ManagedObjectModel that is in use (frozen)"))
    }

    @Test func changingConfigurationsOfAFrozenModelStops() async {
        await #expect(processExitsWith: .failure) {
            let model = ManagedObjectModel { EntityDescription("A") }
            try model.freeze()
            model.configurations = ["C": ["A"]]
        }
    }

    @Test func changingTemplatesOfAFrozenModelStops() async {
        await #expect(processExitsWith: .failure) {
            let model = ManagedObjectModel { EntityDescription("A") }
            try model.freeze()
            model.fetchRequestTemplates = []
        }
    }

    @Test func changingVersionIdentifiersOfAFrozenModelStops() async {
        await #expect(processExitsWith: .failure) {
            let model = ManagedObjectModel { EntityDescription("A") }
            try model.freeze()
            model.versionIdentifiers = ["x"]
        }
    }
}
