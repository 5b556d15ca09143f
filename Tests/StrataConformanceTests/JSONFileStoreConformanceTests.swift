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
