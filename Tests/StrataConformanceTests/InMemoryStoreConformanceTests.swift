import Foundation
import Strata
import StrataConformance
import StrataConformanceTesting
import Testing

/// The in-memory store, the suite's oracle, passes every check.
@Suite struct InMemoryStoreConformanceTests {
    static let suite = ConformanceSuite(storeType: .inMemory, storage: .memory)

    @Test(arguments: suite.checks)
    func conforms(_ check: ConformanceCheck) { Self.suite.expectPass(check) }
}
