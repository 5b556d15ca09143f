import Foundation
import Strata
import StrataConformance
import StrataConformanceTesting
import Testing

/// The in-memory store, the suite's oracle, passes every check.
@Suite struct InMemoryStoreConformanceTests {
    static let suite = ConformanceSuite(storeType: .inMemory, storage: .memory)

    @Test(arguments: suite.checks)
    func conforms(_ check: ConformanceCheck) { Self.suite.expectPass(check) }

    /// The checks the suite skips for this store, each for a requirement it does not meet.
    static let skipped: Set<String> = [
        "A.copyKeepsIdentifier", "A.createsAtMissingURL", "A.destroyRemovesTheStore", "A.filesKeepTheUmask",
        "A.incompatibleModelRefused", "A.metadataOfMissingFileIsNil", "A.onlyDocumentedFiles",
        "A.replacedFileNoticed", "A.secondWriterRefused", "A.userKeysWithoutOpening", "A.zeroLengthFileIsNewStore",
        "J.twoOpeningsOfOneFileConflict", "K.batchLoadsSeeOtherOpeningsSaves", "M.fullDisk",
        "M.killDuringClosedMetadataWrites", "M.killDuringMetadataSaves", "M.killDuringSaves", "M.readOnlyFolder",
        "N.byteFlips", "N.byteFlips.header", "N.directory", "N.foreign.binary", "N.foreign.json", "N.foreign.lmdb",
        "N.foreign.sqlite", "N.foreign.xml", "N.newerFormatVersion", "N.noPermission", "N.randomBytes.large",
        "N.randomBytes.page", "N.randomBytes.small", "N.truncated.half", "N.truncated.header",
        "N.truncated.lastBytes", "N.truncated.oneByte", "O.modelVersion.attributes", "O.modelVersion.entityAdded",
        "O.modelVersion.failureLeavesTheSource", "O.modelVersion.toOneBecomesToMany", "O.sourceFileUntouched",
        "Q.closeReleasesViews", "Q.contextAdvancesAsDocumented", "Q.faultOfDeletedObjectFires",
        "Q.fetchUnchangedAfterOtherSave", "Q.toManyUnchangedAfterOtherSave", "Q.tokensEqualAndOrdered",
        "Q.viewAnswersAsTheStoreDidWhenOpened", "T.remoteChangesMergeIntoContexts",
        "T.remoteHistoryFindsOtherWritersSaves", "Z.deletion", "Z.inlineLimit", "Z.killDuringSaves", "Z.migration",
        "Z.roundTrip", "Z.updates",
    ]

    @Test func skipsExactlyThePinnedChecks() { Self.suite.expectSkips(Self.skipped) }
}
