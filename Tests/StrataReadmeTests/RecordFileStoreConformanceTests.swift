// snippet: conformance
import StrataConformance
import StrataConformanceTesting
import Testing

@Suite struct RecordFileStoreConformanceTests {
    static let suite = ConformanceSuite(
        storeType: .recordFile, storage: .file(pathExtension: "records"), documentedSideFiles: [".lock"])

    @Test(arguments: suite.checks)
    func conforms(_ check: ConformanceCheck) { Self.suite.expectPass(check) }
}
// end snippet
