import Foundation
import StrataTestSupport
import Testing

/// An SQLite store Core Data wrote, with its model bundle.
enum AppleFixtures {
    private static let project = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(
            "Fixtures/coredata/wibosco-CoreDataMigrationRevised-Example")

    /// Apple's 2010 Recipes store, which keeps no model (no `Z_MODELCACHE`).
    static let recipesStore = project.deletingLastPathComponent().appendingPathComponent(
        "fruitsamples-iPhoneCoreDataRecipes/RecipeData/Recipes.sqlite")

    /// The model bundle whose first version the store was written with.
    static let modelBundle = project.appendingPathComponent(
        "CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld")

    /// CoreDataPlus's model bundle `SampleModel3`, three versions.
    static let sampleModel3 = project.deletingLastPathComponent().appendingPathComponent(
        "alemar11-CoreDataPlus/Tests/Resources/SampleModel3/SampleModel3.xcdatamodeld")

    /// The version hashes Xcode wrote when it compiled ``sampleModel3``, by version and
    /// entity, in base64.
    static func sampleModel3Hashes() throws -> [String: [String: String]] {
        let plist = sampleModel3.deletingLastPathComponent().appendingPathComponent(
            "Fixtures/SampleModel3.momd/VersionInfo.plist")
        let info = try PropertyListSerialization.propertyList(from: Data(contentsOf: plist), format: nil)
        let versions = (info as? [String: Any])?["NSManagedObjectModel_VersionHashes"] as? [String: [String: Data]]
        return try #require(versions).mapValues { $0.mapValues { $0.base64EncodedString() } }
    }

    /// Copies the store, ten posts, into `directory` and returns the copy.
    static func copyStore(into directory: TemporaryDirectory) throws -> URL {
        let copy = directory.file("apple.sqlite")
        try FileManager.default.copyItem(
            at: project.appendingPathComponent(
                "CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_1.sqlite"), to: copy)
        return copy
    }
}
