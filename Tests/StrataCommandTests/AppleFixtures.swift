import Foundation
import StrataTestSupport

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

    /// Copies the store, ten posts, into `directory` and returns the copy.
    static func copyStore(into directory: TemporaryDirectory) throws -> URL {
        let copy = directory.file("apple.sqlite")
        try FileManager.default.copyItem(
            at: project.appendingPathComponent(
                "CoreDataMigration-ExampleTests/Resources/SQLite/CoreDataMigration_Example_1.sqlite"), to: copy)
        return copy
    }
}
