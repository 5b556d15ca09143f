import Foundation
import Strata
import StrataConformance
import StrataConformanceTesting
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// The PostgreSQL store passes every check of the conformance suite, each store of each check
/// in a schema of its own on the test server; the durability checks kill the store's worker
/// (`PostgresStoreConformanceWorker`) in the middle of its saves, and wait for the server to
/// finish what the worker sent it (its connections name the schema as their application).
@Suite struct PostgresStoreConformanceTests {
    static let suite = ConformanceSuite(
        storeType: .postgres,
        storage: .server(
            .init(
                name: "PostgreSQL test server",
                locate: { place in PostgresTestServer.storeURL(schema: place, applicationName: place) },
                awaitKilledClients: { url in try PostgresKilledClients.awaitWork(of: url) })),
        workerExecutable: ConformanceWorker.executable(named: "PostgresStoreConformanceWorker"))

    @Test func serverRuns() throws {
        _ = try PostgresTestServer.shared.get()
    }

    @Test(arguments: suite.checks)
    func conforms(_ check: ConformanceCheck) { Self.suite.expectPass(check) }

    /// The checks the suite skips for this store, each for a requirement it does not meet.
    static let skipped: Set<String> = [
        "A.filesKeepTheUmask", "A.onlyDocumentedFiles", "A.replacedFileNoticed", "A.zeroLengthFileIsNewStore",
        "M.fullDisk", "M.readOnlyFolder", "N.byteFlips", "N.byteFlips.header", "N.directory", "N.foreign.binary",
        "N.foreign.json", "N.foreign.lmdb", "N.foreign.sqlite", "N.foreign.xml", "N.newerFormatVersion",
        "N.noPermission", "N.randomBytes.large", "N.randomBytes.page", "N.randomBytes.small", "N.truncated.half",
        "N.truncated.header", "N.truncated.lastBytes", "N.truncated.oneByte",
        "O.modelVersion.failureLeavesTheSource", "O.sourceFileUntouched",
    ]

    @Test func skipsExactlyThePinnedChecks() { Self.suite.expectSkips(Self.skipped) }
}
