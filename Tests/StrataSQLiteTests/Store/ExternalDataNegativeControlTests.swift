import Foundation
import Strata
import StrataConformance
import StrataConformanceTesting
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// The negative control of category Z: an SQLite store that leaves the files of replaced and
/// deleted values in place fails the checks looking for them, and no other.
@Suite struct ExternalDataNegativeControlTests {
    /// The SQLite store, with every external data file a save removes put back.
    final class KeepingStore: ForwardingStore, @unchecked Sendable {
        // Safe: the stored properties are constants.
        private let folder: URL

        init(_ base: SQLiteStore) {
            folder = base.externalData.directory
            super.init(base)
        }

        override func save(_ changes: StoreChangeSet) throws {
            let before = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            let kept = before.map { ($0, try? Data(contentsOf: folder.appendingPathComponent($0))) }
            try base.save(changes)
            for case let (name, data?) in kept
            where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
                try data.write(to: folder.appendingPathComponent(name))
            }
        }
    }

    static let keepingSQLite = StoreType(
        name: "KeepingSQLite",
        open: { KeepingStore(try SQLiteStoreFile.open($0)) },
        readMetadata: { try SQLiteStoreFile.readMetadata(at: $0.path) },
        writeMetadata: { try SQLiteStoreFile.writeMetadata($0, at: $1.path) },
        destroy: { try SQLiteStoreFile.destroy(at: $0.path) })

    @Test func aStoreKeepingObsoleteFilesFailsTheChecksLookingForThem() {
        let suite = ConformanceSuite(storeType: Self.keepingSQLite, storage: .file(pathExtension: "sqlite"), seed: 1)
        let failed = suite.checks.filter { $0.category == .externalBinaryData }.filter { check in
            if case .failed = suite.run(check).outcome { return true }
            return false
        }.map(\.id)
        #expect(failed == ["Z.updates", "Z.deletion"])
    }
}
