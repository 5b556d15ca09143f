import Foundation
import Strata
import StrataXcodeModel
import Testing

/// Strata's version hashes equal the ones Core Data wrote into the Apple-made fixture stores
/// and compiled models.
@Suite struct VersionHashFixtureTests {
    /// Where a store's model comes from.
    enum ModelSource: Sendable {
        /// Version `version` of the `.xcdatamodeld` at `bundle`.
        case xcode(bundle: String, version: String)
        /// A model written out in ``CodeBuiltFixtureModels``.
        case code(@Sendable () -> ManagedObjectModel)
    }

    /// One fixture store and the model it was made with.
    struct StoreCase: Sendable, CustomTestStringConvertible {
        let store: String
        let model: ModelSource

        var testDescription: String { (store as NSString).lastPathComponent }

        func loadModel() throws -> ManagedObjectModel {
            switch model {
            case .xcode(let bundle, let version):
                try XcodeVersionedModel(contentsOf: FixturePaths.url(bundle)).model(named: version)
            case .code(let build):
                build()
            }
        }
    }

    static let cases: [StoreCase] = {
        let wibosco = "wibosco-CoreDataMigration-Example/CoreDataMigration-Example"
        let wiboscoModel = wibosco + "/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"
        let wiboscoStores = "wibosco-CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite/"
        let revised = "wibosco-CoreDataMigrationRevised-Example/"
        let revisedModel = revised + "CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"
        let revisedStores = revised + "CoreDataMigration-ExampleTests/Resources/SQLite/"
        let plus = "alemar11-CoreDataPlus/Tests/Resources/"
        let jeff = "jeffreybergier-CoreDataMigrationTests/CoreDataMigration/"
        var cases: [StoreCase] = [
            StoreCase(
                store: wiboscoStores + "CoreDataMigration_Example_1.sqlite",
                model: .xcode(bundle: wiboscoModel, version: "CoreDataMigration_Example")),
            StoreCase(
                store: wiboscoStores + "CoreDataMigration_Example_2.sqlite",
                model: .xcode(bundle: wiboscoModel, version: "CoreDataMigration_Example 2")),
            StoreCase(
                store: wiboscoStores + "CoreDataMigration_Example_3.sqlite",
                model: .xcode(bundle: wiboscoModel, version: "CoreDataMigration_Example 3")),
            StoreCase(
                store: wiboscoStores + "CoreDataMigration_Example_WAL.sqlite",
                model: .xcode(bundle: wiboscoModel, version: "CoreDataMigration_Example 4")),
            StoreCase(
                store: revisedStores + "CoreDataMigration_Example_1.sqlite",
                model: .xcode(bundle: revisedModel, version: "CoreDataMigration_Example")),
            StoreCase(
                store: revisedStores + "CoreDataMigration_Example_2.sqlite",
                model: .xcode(bundle: revisedModel, version: "CoreDataMigration_Example 2")),
            StoreCase(
                store: revisedStores + "CoreDataMigration_Example_3.sqlite",
                model: .xcode(bundle: revisedModel, version: "CoreDataMigration_Example 3")),
            StoreCase(
                store: plus + "SampleModel/Fixtures/SampleModel_V1.sqlite",
                model: .xcode(bundle: plus + "SampleModel/SampleModel.xcdatamodeld", version: "SampleModel")),
            StoreCase(
                store: plus + "SampleModel/Fixtures/SampleModel_V2.sqlite",
                model: .xcode(bundle: plus + "SampleModel/SampleModel.xcdatamodeld", version: "SampleModel2")),
            StoreCase(
                store: plus + "SampleModel3/Fixtures/SampleModel3_V1.sqlite",
                model: .xcode(bundle: plus + "SampleModel3/SampleModel3.xcdatamodeld", version: "SampleModel3")),
            StoreCase(
                store: plus + "SampleModel2/Fixtures/SampleModel2_V1.sqlite",
                model: .code({ CodeBuiltFixtureModels.sampleModel2(version: 1) })),
            StoreCase(
                store: plus + "SampleModel2/Fixtures/SampleModel2_V2.sqlite",
                model: .code({ CodeBuiltFixtureModels.sampleModel2(version: 2) })),
            StoreCase(
                store: "fruitsamples-iPhoneCoreDataRecipes/RecipeData/Recipes.sqlite",
                model: .code(CodeBuiltFixtureModels.recipes)),
        ]
        for version in ["v1.0.0", "v1.1.0", "v1.1.2", "v1.2.0", "v2.0.0"] {
            cases.append(
                StoreCase(
                    store: jeff + "CoreDataMigrationTests/Example_\(version).sqlite",
                    model: .xcode(bundle: jeff + "CoreDataMigration/Model.xcdatamodeld", version: version)))
        }
        return cases
    }()

    /// The compiled models and the model bundles they were compiled from.
    static let compiledModels = [
        (
            "alemar11-CoreDataPlus/Tests/Resources/SampleModel/Fixtures/SampleModel.momd",
            "alemar11-CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"
        ),
        (
            "alemar11-CoreDataPlus/Tests/Resources/SampleModel3/Fixtures/SampleModel3.momd",
            "alemar11-CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld"
        ),
    ]

    /// The outcome of comparing Apple's entity hashes with Strata's.
    struct Comparison {
        var compared = 0
        var differing: [String] = []

        mutating func compare(_ theirs: [String: [UInt8]], _ ours: [String: [UInt8]], in place: String) {
            #expect(Set(ours.keys) == Set(theirs.keys), "\(place) and Strata's model have the same entities")
            for (entity, hash) in theirs.sorted(by: { $0.key < $1.key }) {
                compared += 1
                if ours[entity] != hash { differing.append("\(place): \(entity)") }
            }
        }
    }

    /// Compares every entity hash of `storeCase`'s store with the hash Strata computes.
    static func compare(_ storeCase: StoreCase) throws -> (Comparison, FixtureStoreMetadata, ManagedObjectModel) {
        let directory = try TemporaryDirectory()
        let metadata = try FixtureStoreMetadata(storeAt: directory.copyStore(storeCase.store))
        let model = try storeCase.loadModel()
        try model.freeze()
        var comparison = Comparison()
        comparison.compare(
            metadata.entityVersionHashes, model.schema.entityVersionHashes, in: storeCase.testDescription)
        return (comparison, metadata, model)
    }

    /// Compares every entity hash in the `VersionInfo.plist` of `momd` with the hashes Strata
    /// computes for the versions in `bundle`, and each version checksum listed there.
    static func compareCompiled(_ momd: String, _ bundle: String) throws -> Comparison {
        let (hashes, checksums) = try versionInfo(momd)
        let versioned = try XcodeVersionedModel(contentsOf: FixturePaths.url(bundle))
        #expect(Set(hashes.keys) == Set(versioned.versionNames))
        var comparison = Comparison()
        for (version, entities) in hashes.sorted(by: { $0.key < $1.key }) {
            let model = try versioned.model(named: version)
            try model.freeze()
            comparison.compare(entities, model.schema.entityVersionHashes, in: "\(momd) \(version)")
            if let checksum = checksums[version] {
                #expect(Data(model.schema.versionChecksum).base64EncodedString() == checksum, "version \(version)")
            }
        }
        return comparison
    }

    @Test func everyFixtureStoreHasACase() {
        #expect(Set(Self.cases.map(\.store)) == Set(FixturePaths.stores))
    }

    @Test(arguments: cases)
    func storeHashesEqualStrataHashes(_ storeCase: StoreCase) throws {
        let (comparison, metadata, model) = try Self.compare(storeCase)
        #expect(comparison.differing.isEmpty)
        #expect(metadata.values["NSStoreModelVersionHashesVersion"] as? Int == 3)
        #expect(metadata.versionIdentifiers == model.versionIdentifiers)
        if let digest = metadata.string("NSStoreModelVersionHashesDigest") {
            #expect(Data(model.schema.versionHashesDigest).base64EncodedString() == digest)
        }
        if let checksum = metadata.string("NSStoreModelVersionChecksumKey") {
            #expect(Data(model.schema.versionChecksum).base64EncodedString() == checksum)
        }
        let stored = StoreMetadata(
            storeType: "SQLite", storeIdentifier: "fixture", versionHashes: metadata.entityVersionHashes,
            versionIdentifiers: metadata.versionIdentifiers, versionHashesVersion: 3, frameworkVersion: "Core Data",
            modelJSON: nil, userInfo: [:])
        #expect(model.isConfiguration(nil, compatibleWithStoreMetadata: stored))
    }

    /// A store written with one version of a model needs migrating to open with the next.
    @Test func storeOfAnEarlierVersionIsNotCompatibleWithTheNext() throws {
        let (_, metadata, _) = try Self.compare(Self.cases[0])
        let next = try XcodeVersionedModel(
            contentsOf: FixturePaths.url(
                "wibosco-CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"
            )
        ).model(named: "CoreDataMigration_Example 2")
        try next.freeze()
        let stored = StoreMetadata(
            storeType: "SQLite", storeIdentifier: "fixture", versionHashes: metadata.entityVersionHashes,
            versionIdentifiers: metadata.versionIdentifiers, versionHashesVersion: 3, frameworkVersion: "Core Data",
            modelJSON: nil, userInfo: [:])
        #expect(
            next.compatibilityProblems(configuration: nil, metadata: stored) == [
                "Entity 'Post' has changed since the store was written (its version hash differs)."
            ])
    }

    /// The compiled models' `VersionInfo.plist` files list every version's entity hashes (and,
    /// for SampleModel3, each version's checksum).
    @Test(arguments: compiledModels)
    func compiledModelHashesEqualStrataHashes(_ momd: String, _ bundle: String) throws {
        #expect(try Self.compareCompiled(momd, bundle).differing.isEmpty)
    }

    /// Every entity hash Apple wrote in the fixtures, and how many Strata reproduces: 40 in
    /// the 18 stores, 18 in the compiled models.
    @Test func entityHashTotals() throws {
        var all = Comparison()
        for storeCase in Self.cases {
            let (comparison, _, _) = try Self.compare(storeCase)
            all.compared += comparison.compared
            all.differing += comparison.differing
        }
        for (momd, bundle) in Self.compiledModels {
            let comparison = try Self.compareCompiled(momd, bundle)
            all.compared += comparison.compared
            all.differing += comparison.differing
        }
        #expect(all.compared == 58)
        #expect(all.differing == [])
    }

    /// `NSManagedObjectModel_VersionHashes` and `NSManagedObjectModel_VersionChecksums` of a
    /// compiled model.
    static func versionInfo(_ momd: String) throws -> (hashes: [String: [String: [UInt8]]], checksums: [String: String])
    {
        let data = try Data(contentsOf: FixturePaths.url(momd + "/VersionInfo.plist"))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        let hashes = try #require(plist["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]])
        return (
            hashes.mapValues { $0.mapValues { Array($0) } },
            plist["NSManagedObjectModel_VersionChecksums"] as? [String: String] ?? [:]
        )
    }
}
