import Foundation
import Strata
import StrataConformance
import StrataConformanceTesting
import StrataTestSupport
import Testing

@testable import StrataSQLite

/// Negative controls of the query-generation checks (`Q.*`): an SQLite store whose read views
/// read the latest state fails every one of them, and one whose views quietly read the latest
/// state once they were released fails the check that closing releases them, and no other.
@Suite struct GenerationNegativeControlTests {
    /// How a store's read views go wrong.
    enum Defect: String, Sendable {
        /// Views read the store's latest state: nothing is pinned.
        case viewsReadTheLatestState
        /// Views pin, but once released read the store's latest state instead of failing.
        case viewsFallBackWhenReleased
    }

    /// The SQLite store with views that have `defect`.
    final class DefectiveStore: ForwardingStore, @unchecked Sendable {
        // Safe: it adds only constants to its base class.
        let sqlite: SQLiteStore
        let defect: Defect

        init(_ sqlite: SQLiteStore, defect: Defect) {
            self.sqlite = sqlite
            self.defect = defect
            super.init(sqlite)
        }

        override func openGeneration() throws -> (any StoreGeneration)? {
            switch defect {
            case .viewsReadTheLatestState: return LatestView(store: sqlite, pinned: nil)
            case .viewsFallBackWhenReleased: return LatestView(store: sqlite, pinned: try sqlite.openGeneration())
            }
        }
    }

    /// A view that reads `pinned` while it can, and the store's latest state otherwise.
    final class LatestView: StoreGeneration {
        let store: SQLiteStore
        let pinned: (any StoreGeneration)?

        init(store: SQLiteStore, pinned: (any StoreGeneration)?) {
            self.store = store
            self.pinned = pinned
        }

        private func read<T>(_ pinnedRead: (any StoreGeneration) throws -> T, _ latest: () throws -> T) throws -> T {
            do {
                if let pinned { return try pinnedRead(pinned) }
            } catch let error as StoreError where error.code == .generationUnavailable {}
            return try latest()
        }

        func execute(_ request: StoreFetchRequest) throws -> StoreFetchResult {
            try read({ try $0.execute(request) }, { try store.execute(request) })
        }

        func snapshot(for objectID: ObjectID) throws -> Snapshot? {
            try read({ try $0.snapshot(for: objectID) }, { try store.snapshot(for: objectID) })
        }

        func relatedObjectIDs(of objectID: ObjectID, relationship: String) throws -> [ObjectID] {
            try read(
                { try $0.relatedObjectIDs(of: objectID, relationship: relationship) },
                { try store.relatedObjectIDs(of: objectID, relationship: relationship) })
        }
    }

    static func type(_ defect: Defect) -> StoreType {
        StoreType(
            name: "SQLite-\(defect.rawValue)",
            open: { DefectiveStore(try SQLiteStoreFile.open($0), defect: defect) },
            readMetadata: { try SQLiteStoreFile.readMetadata(at: $0.path) },
            writeMetadata: { try SQLiteStoreFile.writeMetadata($0, at: $1.path) },
            destroy: { try SQLiteStoreFile.destroy(at: $0.path) })
    }

    static func failures(of defect: Defect) -> [String] {
        let suite = ConformanceSuite(storeType: type(defect), storage: .file(pathExtension: "sqlite"), seed: 1)
        return suite.checks.filter { $0.category == .queryGenerations }.filter { check in
            if case .failed = suite.run(check).outcome { return true }
            return false
        }.map(\.id).sorted()
    }

    @Test func viewsThatReadTheLatestStateFailEveryGenerationCheck() {
        #expect(
            Self.failures(of: .viewsReadTheLatestState) == [
                "Q.closeReleasesViews", "Q.contextAdvancesAsDocumented", "Q.faultOfDeletedObjectFires",
                "Q.fetchUnchangedAfterOtherSave", "Q.toManyUnchangedAfterOtherSave", "Q.tokensEqualAndOrdered",
                "Q.viewAnswersAsTheStoreDidWhenOpened",
            ])
    }

    @Test func viewsThatQuietlyReadOnAfterReleaseFailTheCloseCheck() {
        #expect(Self.failures(of: .viewsFallBackWhenReleased) == ["Q.closeReleasesViews"])
    }
}
