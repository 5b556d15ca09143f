import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Testing

/// Progressive migration: a store found among a plan's versions and stepped to the current
/// one, by mapping models where given and inferred mappings elsewhere; and a coordinator that
/// does it when a store is added.
@Suite struct MigrationPlanTests {
    private static func plan(_ versions: [Int], mappings: [MappingModel] = []) -> MigrationPlan {
        MigrationPlan(models: versions.map(LibraryVersions.model), mappingModels: mappings)
    }

    @Test(arguments: ["SQLite", "LMDB"])
    func aStoreStepsThroughEveryVersion(_ typeName: String) throws {
        let type = try MigrationManagerTests.type(typeName)
        let directory = try TemporaryDirectory()
        let url = directory.file("library.store")
        try LibraryVersions.writeVersion1(type, at: url)
        let version3 = LibraryVersions.model(3)

        let steps = try Self.plan([1, 2, 3]).migrateStore(at: url, type: type, to: version3)

        #expect(steps.map { "\($0.source.name)→\($0.destination.name)" } == ["1→2", "2→3"])
        #expect(steps.map(\.isInferred) == [true, true])
        #expect(try LibraryVersions.summary(of: url, type: type, model: version3) == LibraryVersions.version3Summary)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).allSatisfy {
                !$0.contains("migrating")
            })
    }

    @Test func aPlanSkipsTheVersionsItLeavesOut() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let version3 = LibraryVersions.model(3)
        let steps = try Self.plan([1, 3]).migrateStore(at: url, type: .sqlite, to: version3)
        #expect(steps.map { "\($0.source.name)→\($0.destination.name)" } == ["1→3"])
        #expect(try LibraryVersions.summary(of: url, type: .sqlite, model: version3) == LibraryVersions.version3Summary)
    }

    @Test func aMappingModelThatJumpsAheadIsTakenOverInferredSteps() throws {
        let (version1, version3) = (LibraryVersions.model(1), LibraryVersions.model(3))
        let jump = try MappingModel.inferred(from: version1, to: version3)
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let metadata = try #require(try StoreType.sqlite.metadata(ofFileAt: url))

        let handWritten = try MappingModel(
            entityMappings: jump.entityMappings.map { mapping in
                var bare = mapping
                bare.sourceEntityVersionHash = nil
                bare.destinationEntityVersionHash = nil
                return bare
            }, sourceModel: version1, destinationModel: version3)
        #expect(handWritten == jump)
        let plan = MigrationPlan(
            models: [version1, LibraryVersions.model(2), version3], mappingModels: [handWritten])
        #expect(plan.version(matching: metadata)?.name == "1")
        let steps = try plan.steps(from: metadata, to: version3)
        #expect(steps.map { "\($0.source.name)→\($0.destination.name)" } == ["1→3"])
        #expect(steps.map(\.isInferred) == [false])
        #expect(try plan.steps(from: metadata, to: version1).isEmpty)
    }

    @Test func aStoreOfNoKnownVersionIsNamedInTheError() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let before = try DirectorySnapshot(directory.url)
        let error = #expect(throws: MigrationError.self) {
            try Self.plan([2, 3]).migrateStore(at: url, type: .sqlite, to: LibraryVersions.model(3))
        }
        #expect(error?.code == .noMatchingVersion)
        #expect(error?.message.contains("version identifiers [\"1\"]") == true)
        #expect(error?.message.contains("'2', '3'") == true)
        #expect(try DirectorySnapshot(directory.url) == before)
    }

    @Test func aStepWithoutAMappingFailsWhenInferenceIsNotAllowed() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let error = #expect(throws: MigrationError.self) {
            try Self.plan([1, 2]).migrateStore(
                at: url, type: .sqlite, to: LibraryVersions.model(2), allowsInference: false)
        }
        #expect(error?.code == .noMapping)
        #expect(error?.message.contains("'1' to '2'") == true)
    }

    @Test(arguments: MigrationManagerTests.typeNames)
    func aFailingLaterStepLeavesTheStoreAsItWas(_ typeName: String) throws {
        let type = try MigrationManagerTests.type(typeName)
        let directory = try TemporaryDirectory()
        let url = directory.file("library.store")
        try LibraryVersions.writeVersion1(type, at: url)
        let before = try DirectorySnapshot(directory.url)
        let error = #expect(throws: MigrationError.self) {
            try Self.plan([1, 2, 3, 4]).migrateStore(at: url, type: type, to: LibraryVersions.model(4))
        }
        #expect(error?.code == .invalidValue)
        #expect(try DirectorySnapshot(directory.url) == before)
    }

    @Test func addingAStoreMigratesItByTheCoordinatorsPlan() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let coordinator = try PersistentStoreCoordinator(model: LibraryVersions.model(3), storeTypes: [.sqlite])
        coordinator.migrationPlan = Self.plan([1, 2])

        try coordinator.addStore(.sqlite(at: url))

        #expect(try LibraryVersions.summary(of: coordinator) == LibraryVersions.version3Summary)
    }

    @Test func addingAStoreOfAnOlderVersionFollowsTheDescriptionsFlags() throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("library.sqlite")
        try LibraryVersions.writeVersion1(.sqlite, at: url)
        let before = try DirectorySnapshot(directory.url)
        let coordinator = try PersistentStoreCoordinator(model: LibraryVersions.model(2), storeTypes: [.sqlite])

        let withoutPlan = #expect(throws: StoreError.self) { try coordinator.addStore(.sqlite(at: url)) }
        #expect(withoutPlan?.code == .incompatibleModel)
        coordinator.migrationPlan = Self.plan([3])
        let unknownVersion = #expect(throws: MigrationError.self) { try coordinator.addStore(.sqlite(at: url)) }
        #expect(unknownVersion?.code == .noMatchingVersion)

        coordinator.migrationPlan = Self.plan([1])
        var noMigration = PersistentStoreDescription.sqlite(at: url)
        noMigration.shouldMigrateStoreAutomatically = false
        let refused = #expect(throws: StoreError.self) { try coordinator.addStore(noMigration) }
        #expect(refused?.code == .incompatibleModel)

        var noInference = PersistentStoreDescription.sqlite(at: url)
        noInference.shouldInferMappingModelAutomatically = false
        let noMapping = #expect(throws: MigrationError.self) { try coordinator.addStore(noInference) }
        #expect(noMapping?.code == .noMapping)

        var readOnly = PersistentStoreDescription.sqlite(at: url)
        readOnly.isReadOnly = true
        let notWritable = #expect(throws: StoreError.self) { try coordinator.addStore(readOnly) }
        #expect(notWritable?.code == .readOnly)
        #expect(try DirectorySnapshot(directory.url) == before)

        try coordinator.addStore(.sqlite(at: url))
        #expect(try LibraryVersions.summary(of: coordinator) == LibraryVersions.migratedSummary)
    }
}
