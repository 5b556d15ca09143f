import Foundation
import Strata
import StrataConformance
import StrataConformanceTesting
import StrataTestSupport
import Testing

@testable import StrataXML

/// The XML store passes every check of the conformance suite, the durability checks included
/// (their worker is `XMLStoreConformanceWorker`).
@Suite struct XMLStoreConformanceTests {
    static let suite = ConformanceSuite(
        storeType: .xml, storage: .file(pathExtension: "xml"),
        workerExecutable: ConformanceWorker.executable(named: "XMLStoreConformanceWorker"),
        markNewerFormatVersion: XMLStoreTestFiles.markNewerFormatVersion, documentedSideFiles: [".lock"])

    @Test(arguments: suite.checks)
    func conforms(_ check: ConformanceCheck) { Self.suite.expectPass(check) }

    /// The checks the suite skips for this store, each for a requirement it does not meet.
    static let skipped = PinnedConformanceSkips.wholeFileStore.union(["N.foreign.xml"])

    @Test func skipsExactlyThePinnedChecks() { Self.suite.expectSkips(Self.skipped) }
}
