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
}
