import Foundation
import Testing

@testable import Strata

@Suite struct PersistentStoreCoordinatorURITests {
    /// A coordinator with a "Scratch" store holding one saved note, and that note's ID.
    private func savedNote() throws -> (PersistentStoreCoordinator, any IncrementalStore, ObjectID) {
        let coordinator = try PersistentStoreCoordinator(model: try CoordinatorFixtures.model())
        let store = try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Scratch")
        let id = try store.permanentIDs(forEntities: ["Note"])[0]
        try store.save(StoreChangeSet(inserted: [.init(objectID: id, values: ["text": "kept"], expectedVersion: 0)]))
        return (coordinator, store, id)
    }

    @Test func aSavedObjectsURIRoundTrips() throws {
        let (coordinator, store, id) = try savedNote()
        let uri = id.uriRepresentation
        #expect(uri.scheme == "x-strata")
        #expect(coordinator.objectID(forURIRepresentation: uri) == id)
        #expect(try store.snapshot(for: try #require(coordinator.objectID(forURIRepresentation: uri)))?.version == 1)
    }

    @Test func malformedURIsGiveNil() throws {
        let (coordinator, store, _) = try savedNote()
        let texts = [
            "https://example.com/Note/p1",
            "x-strata://\(store.identifier)/Note",
            "x-strata://\(store.identifier)/Note/p",
            "x-strata://\(store.identifier)/Note/pone",
            "x-strata://\(store.identifier)/Note/q1",
            "x-strata://\(store.identifier)//p1",
            "x-strata://\(store.identifier)/Note/p1/extra",
            "x-strata://\(store.identifier)/Note/t-not-a-uuid",
            "x-strata:",
        ]
        for text in texts {
            let uri = try #require(URL(string: text))
            #expect(coordinator.objectID(forURIRepresentation: uri) == nil, "\(text)")
        }
    }

    @Test func aTemporaryIDGivesNil() throws {
        let (coordinator, _, _) = try savedNote()
        let temporary = ObjectID.temporary(entityName: "Note")
        #expect(coordinator.objectID(forURIRepresentation: temporary.uriRepresentation) == nil)
    }

    @Test func anUnknownStoreGivesNil() throws {
        let (coordinator, store, id) = try savedNote()
        let elsewhere = ObjectID(storeIdentifier: UUID().uuidString, entityName: "Note", reference: id.reference)
        #expect(coordinator.objectID(forURIRepresentation: elsewhere.uriRepresentation) == nil)
        try coordinator.remove(store)
        #expect(coordinator.objectID(forURIRepresentation: id.uriRepresentation) == nil)
    }

    @Test func anEntityTheStoreDoesNotHoldGivesNil() throws {
        let (coordinator, store, id) = try savedNote()
        for entity in ["Book", "Ghost"] {
            let other = ObjectID(storeIdentifier: store.identifier, entityName: entity, reference: id.reference)
            #expect(coordinator.objectID(forURIRepresentation: other.uriRepresentation) == nil, "\(entity)")
        }
    }
}
