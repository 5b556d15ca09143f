import Foundation
import Strata
import StrataXcodeModel
import Testing

/// A model written only as classes has the version hashes Core Data wrote for the same model
/// made in Xcode: CoreDataPlus's `SampleModel` (inheritance three deep, transient, transformable
/// and preserved attributes, uniqueness constraints of one and two keys, a to-one/to-many pair).
@Suite struct ClassModelFixtureTests {
    class Car: ManagedObject {
        @Managed(.transformable(by: "ColorTransformer")) var color: Data?
        @Managed(.transient) var currentDrivingSpeed: Int64? = 0
        @Managed var maker: String?
        @Managed var markedForDeletionAsOf: Date?
        @Managed var model: String?
        @Managed(.unique) var numberPlate: String
        @ToOne var owner: Person?
    }

    class SportCar: Car {}

    final class ExpensiveSportCar: SportCar {
        @Managed var isLimitedEdition: Bool? = false
    }

    final class Person: ManagedObject {
        override class var entityOptions: EntityOptions {
            EntityOptions(unique: [[\Person.firstName, \Person.lastName]])
        }
        @Managed var firstName: String?
        @Managed(.preserveValueOnDeletion) var id: UUID
        @Managed(.transient) var isDriving: Bool = false
        @Managed var lastName: String?
        @Managed var updatedAt: Date
        @ToMany var cars: Set<Car>
    }

    static let resources = "alemar11-CoreDataPlus/Tests/Resources/SampleModel/"

    @Test func classesHaveTheHashesCoreDataWroteIntoTheStore() throws {
        let model = try ManagedObjectModel(types: [ExpensiveSportCar.self, Person.self])
        try model.freeze()
        let directory = try TemporaryDirectory()
        let metadata = try FixtureStoreMetadata(
            storeAt: directory.copyStore(Self.resources + "Fixtures/SampleModel_V1.sqlite"))
        #expect(model.schema.entityVersionHashes.keys.sorted() == metadata.entityVersionHashes.keys.sorted())
        for (entity, hash) in metadata.entityVersionHashes {
            #expect(model.schema.entityVersionHashes[entity] == hash, "entity \(entity)")
        }
        let xcode = try XcodeVersionedModel(contentsOf: FixturePaths.url(Self.resources + "SampleModel.xcdatamodeld"))
            .model(named: "SampleModel")
        try xcode.freeze()
        #expect(model.schema.entityVersionHashes == xcode.schema.entityVersionHashes)
    }

    @Test func theClassesBindToTheXcodeModel() throws {
        let xcode = try XcodeVersionedModel(
            contentsOf: FixturePaths.url(Self.resources + "SampleModel.xcdatamodeld")
        ).model(named: "SampleModel")
        try xcode.bind([ExpensiveSportCar.self, Person.self])
        #expect(xcode.classes["SportCar"] == SportCar.self)
    }
}
