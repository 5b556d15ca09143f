import Foundation
import Strata
import StrataConformance
import StrataConformanceTesting
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// The PostgreSQL store passes every check of the conformance suite, each store of each check
/// in a schema of its own on the test server; the durability checks kill the store's worker
/// (`PostgresStoreConformanceWorker`) in the middle of its saves.
@Suite struct PostgresStoreConformanceTests {
    static let suite = ConformanceSuite(
        storeType: .postgres,
        storage: .server(
            .init(name: "PostgreSQL test server") { place in
                PostgresTestServer.storeURL(schema: place)
            }),
        workerExecutable: ConformanceWorker.executable(named: "PostgresStoreConformanceWorker"))

    @Test func serverRuns() throws {
        _ = try PostgresTestServer.shared.get()
    }

    @Test(arguments: suite.checks)
    func conforms(_ check: ConformanceCheck) { Self.suite.expectPass(check) }
}
