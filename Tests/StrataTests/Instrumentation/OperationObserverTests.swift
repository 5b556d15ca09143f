import Foundation
import Testing

@testable import Strata

/// The coordinator asks its observer `isObserving` first: an observer that says no is neither
/// told of operations and events nor asked what a task carries, and one that says yes is told
/// of each, with the operation worked out.
@Suite struct OperationObserverTests {
    /// An observer that notes what it is told, observing or not as its switch says.
    final class NotingObserver: OperationObserver {
        let observing = Locked(false)
        let operations = Locked<[ObservedOperation]>([])
        let events = Locked<[ObservedEvent]>([])
        let carriedAsked = Locked(0)

        var isObserving: Bool { observing.withLock { $0 } }

        func observe<T>(_ operation: ObservedOperation, _ body: (inout ObservedOutcome) throws -> T) throws -> T {
            operations.withLock { $0.append(operation) }
            var outcome = ObservedOutcome()
            return try body(&outcome)
        }

        func record(_ event: ObservedEvent) { events.withLock { $0.append(event) } }

        func carriedContext() -> (any Sendable)? {
            carriedAsked.withLock { $0 += 1 }
            return nil
        }

        func withCarriedContext<T>(_ carried: any Sendable, _ body: () -> T) -> T { body() }
    }

    static let model = ManagedObjectModel {
        EntityDescription("Note") { AttributeDescription("text", .string) }
    }

    @Test func anObserverThatIsNotObservingIsToldNothing() async throws {
        let observer = NotingObserver()
        let coordinator = try PersistentStoreCoordinator(model: Self.model, observer: observer)
        try await coordinator.addStore(type: StoreType.inMemory.name)
        let context = ManagedObjectContext(coordinator: coordinator)
        func work() async throws {
            try await context.perform {
                try context.insertNewObject(forEntityName: "Note").setValue(.string("a"), forKey: "text")
                try context.save()
                _ = try context.count(for: FetchRequest<ManagedObject>(entityName: "Note"))
            }
        }

        try await work()
        #expect(observer.operations.withLock { $0 }.isEmpty)
        #expect(observer.carriedAsked.withLock { $0 } == 0)

        observer.observing.withLock { $0 = true }
        try await work()
        let operations = observer.operations.withLock { $0 }
        #expect(operations.map(\.kind) == [.save, .count])
        #expect(operations.map(\.storeTypes) == ["InMemory", "InMemory"])
        #expect(operations.last?.entity == "Note")
        #expect(observer.carriedAsked.withLock { $0 } == 1)
    }

    @Test func aStoreTellsTheObserverOfConnectionWaitsOnlyWhileItObserves() {
        #expect(StoreOpenRequest(model: Self.model).connectionWaitRecorder(storeType: "SQLite") == nil)
        let observer = NotingObserver()
        let recorder = StoreOpenRequest(model: Self.model, observer: observer).connectionWaitRecorder(
            storeType: "SQLite")
        recorder?(0.5)
        #expect(observer.events.withLock { $0 }.isEmpty)
        observer.observing.withLock { $0 = true }
        recorder?(0.5)
        #expect(observer.events.withLock { $0 } == [.connectionWait(storeType: "SQLite", seconds: 0.5)])
    }

    /// Several entities name the stores holding any of them; one entity's types are kept until
    /// a store is added.
    @Test func storeTypesAreThoseOfTheStoresHoldingTheEntities() throws {
        let model = ManagedObjectModel {
            EntityDescription("Note") { AttributeDescription("text", .string) }
            EntityDescription("Tag") { AttributeDescription("name", .string) }
            ConfigurationDescription("Notes", entities: ["Note"])
            ConfigurationDescription("Tags", entities: ["Tag"])
        }
        let coordinator = try PersistentStoreCoordinator(model: model)
        try coordinator.add(try InMemoryStore.open(model: model, configuration: "Notes"))
        #expect(coordinator.observedStoreTypes(ofEntities: ["Note", "Tag"]) == "InMemory")
        #expect(coordinator.observedStoreTypes(ofEntities: ["Tag"]) == "none")
        try coordinator.add(try InMemoryStore.open(model: model, configuration: "Tags"))
        #expect(coordinator.observedStoreTypes(ofEntities: ["Tag"]) == "InMemory")
    }
}
