import Foundation
import Strata
import StrataConformance
import StrataConformanceTesting
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// The SQLite store passes every check of the conformance suite.
@Suite struct SQLiteStoreConformanceTests {
    static let suite = ConformanceSuite(
        storeType: .sqlite, storage: .file(pathExtension: "sqlite"),
        workerExecutable: ConformanceWorker.executable(named: "SQLiteStoreConformanceWorker"),
        documentedSideFiles: ["-wal", "-shm", "-journal"])

    @Test(arguments: suite.checks)
    func conforms(_ check: ConformanceCheck) { Self.suite.expectPass(check) }

    /// The checks the suite skips for this store, each for a requirement it does not meet.
    static let skipped: Set<String> = ["N.foreign.sqlite", "N.newerFormatVersion"]

    @Test func skipsExactlyThePinnedChecks() { Self.suite.expectSkips(Self.skipped) }
}
