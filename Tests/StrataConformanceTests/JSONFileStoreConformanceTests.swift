import Foundation
import Strata
import StrataConformance
import StrataConformanceTesting
import StrataTestSupport
import Testing

/// A whole-file JSON store passes every check, the file-storage ones included.
@Suite struct JSONFileStoreConformanceTests {
    static let suite = ConformanceSuite(
        storeType: .jsonFile(), storage: .file(pathExtension: "json"),
        workerExecutable: ConformanceWorker.executable(named: "JSONStoreConformanceWorker"),
        markNewerFormatVersion: JSONFileStore.markNewerFormatVersion)

    @Test(arguments: suite.checks)
    func conforms(_ check: ConformanceCheck) { Self.suite.expectPass(check) }
}

/// Negative controls for the model-version checks: each fails against a store with the defect
/// it is there to catch, and passes against the sound JSON store.
@Suite struct ModelVersionCheckNegativeControlTests {
    static func check(_ id: String) throws -> ConformanceCheck {
        try #require(JSONFileStoreConformanceTests.suite.checks.first { $0.id == id })
    }

    @Test func aStoreThatTouchesItsFileWhenReadFailsTheUntouchedSourceCheck() throws {
        let check = try Self.check("O.modelVersion.failureLeavesTheSource")
        let touching = ConformanceSuite(
            storeType: .jsonFile(name: "TouchyJSON", failure: .touchesFileOnLoad),
            storage: .file(pathExtension: "json"),
            seed: 1)
        guard case .failed(let message) = touching.run(check).outcome else {
            Issue.record("The check passed against a store that changes its file when it is read.")
            return
        }
        #expect(message.contains("changed the file"), "\(message)")
        #expect(JSONFileStoreConformanceTests.suite.run(check).outcome == .passed)
    }
}
