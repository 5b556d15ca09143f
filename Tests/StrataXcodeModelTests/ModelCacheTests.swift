import Foundation
import Strata
import StrataSQLite
import Testing

@testable import StrataXcodeModel

/// The compiled model Core Data keeps in an SQLite store's `Z_MODELCACHE`, inflated and read:
/// its hashes are the ones the store's metadata records, for every fixture store that has one.
@Suite struct ModelCacheTests {
    static let storesWithACache = FixturePaths.stores.filter { !$0.contains("iPhoneCoreDataRecipes") }

    @Test(arguments: storesWithACache)
    func aStoresModelCacheHasTheHashesItsMetadataRecords(_ store: String) throws {
        let directory = try TemporaryDirectory()
        let copy = try directory.copyStore(store)
        let cache = try #require(try SQLiteModelCache.compressedModel(ofStoreAt: copy))
        let model = try CompiledModel.load(modelCache: cache, file: copy.path)
        try model.freeze()
        let metadata = try #require(try StoreType.sqlite.metadata(ofFileAt: copy))
        #expect(model.schema.entityVersionHashes == metadata.versionHashes)
    }

    @Test func aStoreWithoutACacheHasNone() throws {
        let directory = try TemporaryDirectory()
        let copy = try directory.copyStore("fruitsamples-iPhoneCoreDataRecipes/RecipeData/Recipes.sqlite")
        #expect(try SQLiteModelCache.compressedModel(ofStoreAt: copy) == nil)
        #expect(try SQLiteModelCache.compressedModel(ofStoreAt: directory.url.appendingPathComponent("none")) == nil)
    }

    @Test func damagedCompressedDataIsATypedErrorNamingTheStore() throws {
        let directory = try TemporaryDirectory()
        let copy = try directory.copyStore(
            "alemar11-CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3_V1.sqlite")
        let cache = try #require(try SQLiteModelCache.compressedModel(ofStoreAt: copy))
        for damaged in [cache.prefix(cache.count / 2), Data(repeating: 0xFF, count: 64), Data()] {
            let error = #expect(throws: ModelError.self) {
                try CompiledModel.load(modelCache: damaged, file: copy.path)
            }
            #expect(error?.code == .malformedFile)
            #expect(error?.message.contains(copy.path) == true)
        }
    }
}
