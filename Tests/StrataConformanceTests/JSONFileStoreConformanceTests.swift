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
        workerExecutable: productsFolder.appendingPathComponent("JSONStoreConformanceWorker"),
        markNewerFormatVersion: JSONFileStore.markNewerFormatVersion)

    /// The folder of the built products, which holds the test runner and the worker next to it.
    static var productsFolder: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    @Test(arguments: suite.checks)
    func conforms(_ check: ConformanceCheck) { Self.suite.expectPass(check) }
}
