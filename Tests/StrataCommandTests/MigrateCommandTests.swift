import Foundation
import StrataTestSupport
import Testing

/// `strata migrate` and the model version `strata inspect` names, on stores Core Data wrote.
@Suite struct MigrateCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/coredata")
    static let bergier = fixtures.appendingPathComponent("jeffreybergier-CoreDataMigrationTests/CoreDataMigration")
    static let wibosco = fixtures.appendingPathComponent("wibosco-CoreDataMigration-Example/CoreDataMigration-Example")
    static let wiboscoTests = fixtures.appendingPathComponent(
        "wibosco-CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite")

    static func copy(_ store: URL, into directory: TemporaryDirectory) throws -> URL {
        let copy = directory.file(store.lastPathComponent)
        try FileManager.default.copyItem(at: store, to: copy)
        return copy
    }

    @Test func aStoreStepsThroughEveryVersionByInferredMappings() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.copy(
            Self.bergier.appendingPathComponent("CoreDataMigrationTests/Example_v1.0.0.sqlite"), into: directory)
        let bundle = Self.bergier.appendingPathComponent("CoreDataMigration/Model.xcdatamodeld").path

        let before = try StrataProcess.run(["inspect", store.path, "--model", bundle])
        #expect(before.output.contains("Model version: 'v1.0.0' of Model.xcdatamodeld"), "\(before.output)")
        #expect(before.output.contains("BasicEntity: 1"))

        let outcome = try StrataProcess.run(["migrate", store.path, "--model", bundle])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output.contains("to version 'v2.0.0'"))
        #expect(outcome.output.contains("v1.2.0 → v2.0.0 (inferred mapping)"))
        #expect(outcome.error.contains("Migrated 1 of 1 objects"))

        let after = try StrataProcess.run(["inspect", store.path, "--model", bundle])
        #expect(after.output.contains("Model version: 'v2.0.0' of Model.xcdatamodeld"))
        let again = try StrataProcess.run(["migrate", store.path, "--model", bundle])
        #expect(again.output.contains("already matches version 'v2.0.0'"))
    }

    @Test func aMappingModelRunsItsStepAndAPolicyItNamesIsReported() throws {
        let directory = try TemporaryDirectory()
        let store = try Self.copy(
            Self.wiboscoTests.appendingPathComponent("CoreDataMigration_Example_1.sqlite"), into: directory)
        let bundle = Self.wibosco.appendingPathComponent("CoreData/Model/CoreDataMigration_Example.xcdatamodeld").path
        let mappings = Self.wibosco.appendingPathComponent("CoreData/Migration/Mappings")

        let outcome = try StrataProcess.run([
            "migrate", store.path, "--model", bundle, "--to-version", "CoreDataMigration_Example 2", "--mapping",
            mappings.appendingPathComponent("Migration1to2.xcmappingmodel").path,
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output.contains("CoreDataMigration_Example → CoreDataMigration_Example 2 (mapping model)"))

        let before = try Data(contentsOf: store)
        let refused = try StrataProcess.run([
            "migrate", store.path, "--model", bundle, "--mapping",
            mappings.appendingPathComponent("Migration2to3.xcmappingmodel").path,
        ])
        #expect(refused.status == 1)
        #expect(refused.error.contains("Post2ToPost3MigrationPolicy"))
        #expect(try Data(contentsOf: store) == before)

        let noInference = try StrataProcess.run(["migrate", store.path, "--model", bundle, "--no-inference"])
        #expect(noInference.status == 1)
        #expect(noInference.error.contains("No mapping model takes a store"))
    }

    @Test func aCompiledModelBundleServesInspectAndMigrate() throws {
        let directory = try TemporaryDirectory()
        let project = Self.fixtures.appendingPathComponent(
            "alemar11-CoreDataPlus/Tests/Resources/SampleModel3/Fixtures")
        let store = try Self.copy(project.appendingPathComponent("SampleModel3_V1.sqlite"), into: directory)
        let bundle = project.appendingPathComponent("SampleModel3.momd").path

        let before = try StrataProcess.run(["inspect", store.path, "--model", bundle])
        #expect(before.output.contains("Model version: 'SampleModel3' of SampleModel3.momd"), "\(before.output)")
        #expect(before.output.contains("User: 12"))

        let outcome = try StrataProcess.run([
            "migrate", store.path, "--model", bundle, "--to-version", "SampleModel3_v3",
        ])
        #expect(outcome.status == 0, "\(outcome.error)")
        #expect(outcome.output.contains("SampleModel3_v2 → SampleModel3_v3 (inferred mapping)"))
        let after = try StrataProcess.run([
            "inspect", store.path, "--model", bundle, "--model-version", "SampleModel3_v3",
        ])
        #expect(after.output.contains("User: 12"), "\(after.output)")
        #expect(after.output.contains("Pet: 0"))
    }
}
