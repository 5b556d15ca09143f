import CStrataLMDB
import Foundation
import Strata
import StrataConformance
import StrataConformanceTesting
import StrataTestSupport
import Testing

@testable import StrataLMDB

/// The LMDB store passes every check of the conformance suite.
@Suite struct LMDBStoreConformanceTests {
    static let suite = ConformanceSuite(
        storeType: .lmdb, storage: .file(pathExtension: "lmdb"),
        workerExecutable: ConformanceWorker.executable(named: "LMDBStoreConformanceWorker"),
        markNewerFormatVersion: { try LMDBTestFiles.setFormatVersion(LMDBLayout.formatVersion + 1, at: $0) },
        documentedSideFiles: ["-lock", "-verified"])

    @Test(arguments: suite.checks)
    func conforms(_ check: ConformanceCheck) { Self.suite.expectPass(check) }

    /// The checks the suite skips for this store, each for a requirement it does not meet.
    static let skipped: Set<String> = ["N.foreign.lmdb"]

    @Test func skipsExactlyThePinnedChecks() { Self.suite.expectSkips(Self.skipped) }
}

/// Changes made to closed store files, as only a damaged or future file would have them.
enum LMDBTestFiles {
    /// Rewrites the layout version recorded in the closed store at `url`.
    static func setFormatVersion(_ version: UInt32, at url: URL) throws {
        let environment = try LMDBEnvironment(
            path: url.path, readOnly: false, relaxedDurability: false, mapSize: nil)
        try environment.write { transaction in
            guard let meta = try transaction.openDatabase(LMDBLayout.metaDatabase, create: false) else { return }
            try transaction.put(meta, LMDBLayout.formatKey, LMDBStoreFile.bigEndian(version))
        }
    }
}
