import Foundation
import Strata
import StrataConformance
import StrataConformanceTesting
import StrataTestSupport
import Testing

@testable import StrataBinary

/// The binary store passes every check of the conformance suite. `N.foreign.binary` is skipped
/// by the suite for a store named "Binary", since it hands over Core Data's binary (keyed
/// archive) format; ``BinaryStoreBadInputTests`` opens such a file instead.
@Suite struct BinaryStoreConformanceTests {
    static let suite = ConformanceSuite(
        storeType: .binary, storage: .file(pathExtension: "strata"),
        workerExecutable: ConformanceWorker.executable(named: "BinaryStoreConformanceWorker"),
        markNewerFormatVersion: BinaryStoreFiles.markNewerFormatVersion, documentedSideFiles: [".lock"])

    @Test(arguments: suite.checks)
    func conforms(_ check: ConformanceCheck) { Self.suite.expectPass(check) }

    /// The checks the suite skips for this store, each for a requirement it does not meet.
    static let skipped = PinnedConformanceSkips.wholeFileStore.union(["N.foreign.binary"])

    @Test func skipsExactlyThePinnedChecks() { Self.suite.expectSkips(Self.skipped) }
}
