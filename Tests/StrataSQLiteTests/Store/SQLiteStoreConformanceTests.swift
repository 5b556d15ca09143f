import Foundation
import Strata
import StrataConformance
import StrataConformanceTesting
import StrataSQLite
import Testing

/// The SQLite store passes every check of the conformance suite.
@Suite struct SQLiteStoreConformanceTests {
    static let suite = ConformanceSuite(
        storeType: .sqlite, storage: .file(pathExtension: "sqlite"),
        workerExecutable: productsFolder.appendingPathComponent("SQLiteStoreConformanceWorker"))

    /// The folder of the built products, which holds the test runner and the worker next to it.
    static var productsFolder: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    @Test(arguments: suite.checks)
    func conforms(_ check: ConformanceCheck) { Self.suite.expectPass(check) }
}
