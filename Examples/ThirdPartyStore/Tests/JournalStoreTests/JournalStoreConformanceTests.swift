import JournalStore
import StrataConformance
import StrataConformanceTesting
import Testing

@Suite struct JournalStoreConformanceTests {
    static let suite = ConformanceSuite(
        storeType: .journal, storage: .file(pathExtension: "journal"),
        workerExecutable: ConformanceWorker.executable(named: "JournalStoreWorker"),
        markNewerFormatVersion: JournalFile.markNewerFormatVersion)

    @Test(arguments: suite.checks) func conforms(_ check: ConformanceCheck) { Self.suite.expectPass(check) }
}
