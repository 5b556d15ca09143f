import Foundation
import Strata
import StrataConformance
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// The negative control of the durability checks on server storage: a worker that commits
/// each object of a save in a transaction of its own, killed in the middle of its saves,
/// leaves half saves that `M.killDuringSaves` finds.
@Suite struct PostgresDurabilityNegativeControlTests {
    @Test func aWorkerSplittingItsSavesFailsTheDurabilityCheck() throws {
        let folder = try TemporaryDirectory()
        let worker = folder.file("PostgresStoreConformanceWorker-splitting-saves")
        try FileManager.default.createSymbolicLink(
            at: worker, withDestinationURL: ConformanceWorker.executable(named: "PostgresStoreConformanceWorker"))
        let suite = ConformanceSuite(
            storeType: .postgres,
            storage: PostgresStoreConformanceTests.suite.storage,
            seed: 1, workerExecutable: worker)
        let check = try #require(suite.checks.first { $0.id == "M.killDuringSaves" })
        guard case .failed(let message) = suite.run(check).outcome else {
            Issue.record("M.killDuringSaves passed a worker that splits its saves.")
            return
        }
        #expect(message.contains("is not the state after save"), "\(message)")
    }
}
