import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// `strata search`: hits printed from a fresh index, or from an index file kept up to date from
/// the store's history; bad queries refused.
@Suite struct SearchCommandTests {
    /// Writes a store of `type` with photos 0..<count of ``PhotoLibraryModel`` at `url`, with
    /// history on when `history` is set.
    static func writePhotos(_ numbers: Range<Int>, type: StoreType, at url: URL, history: Bool = true) throws {
        let coordinator = try PersistentStoreCoordinator(model: PhotoLibraryModel.make(), storeTypes: [type])
        _ = try coordinator.addStore(
            type: type.name, at: url, options: StoreOptions(tracksPersistentHistory: history))
        try PhotoLibraryModel.insertPhotos(numbers, into: ManagedObjectContext(coordinator: coordinator))
    }

    @Test(arguments: StoreType.builtInFileTypes)
    func hitsArePrintedAndLaterSavesFound(_ type: StoreType) throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Photos.\(type.name)")
        try Self.writePhotos(0..<5, type: type, at: url)
        let index = folder.file("Photos.search").path
        let first = try StrataProcess.run(["search", url.path, "caption 3", "--index", index])
        #expect(first.status == 0, "\(first.error)")
        #expect(first.output.hasPrefix("1 hit for \"caption 3\""), "\(first.output)")
        #expect(first.output.contains("Photo 3 (Photo)  score "))
        #expect(first.output.contains("[caption] [3]"))
        #expect(first.output.contains("/Photo/p"))
        #expect(FileManager.default.fileExists(atPath: index))
        try Self.writePhotos(5..<7, type: type, at: url)
        let second = try StrataProcess.run(["search", url.path, "capt*", "--limit", "3", "--index", index])
        #expect(second.output.hasPrefix("3 hits for \"capt*\""), "\(second.output) \(second.error)")
        let latest = try StrataProcess.run(["search", url.path, "\"caption 6\"", "--index", index])
        #expect(latest.output.contains("Photo 6 (Photo)"), "\(latest.output) \(latest.error)")
    }

    @Test func aBadQueryIsRefusedNamingIt() throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Photos.sqlite")
        try Self.writePhotos(0..<2, type: .sqlite, at: url)
        let outcome = try StrataProcess.run(["search", url.path, "\"unbalanced"])
        #expect(outcome.status != 0)
        #expect(outcome.error.contains("The search query '\"unbalanced' is not valid"), "\(outcome.error)")
    }
}

extension SearchCommandTests {
    @Test(arguments: StoreType.builtInFileTypes)
    func withoutAnIndexFileEverySearchSeesWhatTheStoreHoldsAlsoWithoutHistory(_ type: StoreType) throws {
        let folder = try TemporaryDirectory()
        let url = folder.file("Photos.\(type.name)")
        try Self.writePhotos(0..<3, type: type, at: url, history: false)
        #expect(try StrataProcess.run(["search", url.path, "photo"]).output.hasPrefix("3 hits"))
        try Self.writePhotos(3..<4, type: type, at: url, history: false)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        let again = try StrataProcess.run(["search", url.path, "photo"])
        #expect(again.output.hasPrefix("4 hits"), "\(again.output) \(again.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == files, "No index is left")
    }
}
