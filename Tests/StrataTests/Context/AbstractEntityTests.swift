import Foundation
import Testing

@testable import Strata

/// An abstract entity has no objects of its own: a context refuses to insert one, naming the
/// concrete sub-entities, and the coordinator refuses a change set that inserts one.
@Suite struct AbstractEntityTests {
    static let model: ManagedObjectModel = {
        let model = ManagedObjectModel {
            EntityDescription("Shape", abstract: true) { AttributeDescription("name", .string) }
            EntityDescription("Polygon", parent: "Shape", abstract: true) { AttributeDescription("sides", .integer16) }
            EntityDescription("Square", parent: "Polygon") {}
            EntityDescription("Circle", parent: "Shape") {}
        }
        try! model.freeze()  // A fixed, valid model: freezing cannot fail.
        return model
    }()

    @Test func aContextRefusesToInsertAnAbstractEntityNamingItsConcreteSubentities() throws {
        let coordinator = try PersistentStoreCoordinator(model: Self.model)
        try coordinator.addStore(type: StoreType.inMemory.name)
        let context = ManagedObjectContext(coordinator: coordinator)
        try context.performAndWait { () throws in
            for abstract in ["Shape", "Polygon"] {
                let error = #expect(throws: ContextError.self) { try context.insertNewObject(forEntityName: abstract) }
                #expect(error?.code == .abstractEntity)
                #expect(error?.message.contains("'\(abstract)' is abstract") == true)
            }
            let error = #expect(throws: ContextError.self) { try context.insertNewObject(forEntityName: "Shape") }
            #expect(error?.message.contains("(Circle, Square)") == true)
            #expect(context.insertedObjects.isEmpty)
            _ = try context.insertNewObject(forEntityName: "Square")
            try context.save()
        }
    }

    @Test func theCoordinatorRefusesAChangeSetInsertingAnAbstractEntity() throws {
        let coordinator = try PersistentStoreCoordinator(model: Self.model)
        let store = try coordinator.addStore(type: StoreType.inMemory.name)
        let id = try store.permanentIDs(forEntities: ["Polygon"])[0]
        let error = #expect(throws: StoreError.self) {
            try coordinator.save(
                StoreChangeSet(inserted: [
                    .init(objectID: id, values: ["name": "p", "sides": .integer16(4)], expectedVersion: 0)
                ]),
                to: store)
        }
        #expect(error?.code == .invalidChange)
        #expect(error?.message.contains("'Polygon' is abstract") == true)
    }
}
