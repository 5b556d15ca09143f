import Foundation
import ServiceLifecycle
import ServiceLifecycleTestKit
import Strata
import StrataService
import StrataStores
import StrataTestSupport
import Synchronization
import Testing

/// `PersistentContainerService`: the stores load when the service runs, and graceful shutdown
/// lets the save in flight finish, refuses later ones, and closes every store.
@Suite struct PersistentContainerServiceTests {
    /// A store whose saves take `delay`, or wait until released, announcing when one has begun.
    final class SlowSavingStore: ForwardingStore, @unchecked Sendable {
        // Safe: `began` and `closed` are atomics, `gate` is a semaphore; the rest is the base class's.
        private let began = Atomic(false)
        private let closed = Atomic(false)
        private let closedMidSave = Atomic(false)
        private let gate: DispatchSemaphore?
        let delay: Duration

        /// Whether a save has begun.
        var hasBegun: Bool { began.load(ordering: .sequentiallyConsistent) }
        /// Whether the store was closed.
        var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }
        /// Whether the store was closed while a save was writing it.
        var wasClosedMidSave: Bool { closedMidSave.load(ordering: .sequentiallyConsistent) }

        init(_ base: any IncrementalStore, delay: Duration) {
            self.delay = delay
            gate = nil
            super.init(base)
        }

        /// A store whose saves wait until `release()`, however long the test takes to get there.
        init(heldUntilReleased base: any IncrementalStore) {
            delay = .zero
            gate = DispatchSemaphore(value: 0)
            super.init(base)
        }

        /// Lets a held save go on.
        func release() { gate?.signal() }

        override func save(_ changes: StoreChangeSet, committingAfter decision: () throws -> Void) throws {
            began.store(true, ordering: .sequentiallyConsistent)
            if let gate {
                gate.wait()
            } else {
                Thread.sleep(
                    forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
            }
            if isClosed { closedMidSave.store(true, ordering: .sequentiallyConsistent) }
            try super.save(changes, committingAfter: decision)
        }

        override func save(_ changes: StoreChangeSet) throws { try save(changes, committingAfter: {}) }

        override func close() {
            closed.store(true, ordering: .sequentiallyConsistent)
            super.close()
        }
    }

    static func container(in folder: TemporaryDirectory) throws -> PersistentContainer {
        try PersistentContainer(
            name: "Travel", model: TravelModel.make(), storeTypes: StoreType.builtInFileTypes,
            defaultStoreType: "SQLite", directory: folder.url)
    }

    /// Waits until `condition` holds, up to ten seconds.
    static func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<1_000 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }

    static func saveCity(named name: String, in container: PersistentContainer) async throws {
        try await container.performBackgroundTask { context in
            let city = try context.insertNewObject(forEntityName: "City")
            try city.setValue(.string(name), forKey: "name")
            try context.save()
        }
    }

    @Test func runLoadsTheStoresAndGracefulShutdownClosesThem() async throws {
        let folder = try TemporaryDirectory()
        let container = try Self.container(in: folder)
        let service = PersistentContainerService(container: container)
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                try await Self.eventually { container.coordinator.stores.count == 1 }
                try await Self.saveCity(named: "Lyon", in: container)
                trigger.triggerGracefulShutdown()
                try await group.waitForAll()
            }
        }
        #expect(container.coordinator.stores.isEmpty)
        await #expect(throws: ContextError.self, "No store holds City any more") {
            try await Self.saveCity(named: "Late", in: container)
        }
        let reopened = try Self.container(in: folder)
        try await reopened.loadPersistentStores()
        let names = try await reopened.performBackgroundTask { context in
            try context.fetch(FetchRequest<ManagedObject>(entityName: "City")).map { try $0.value(forKey: "name") }
        }
        #expect(names == [.string("Lyon")])
    }

    @Test func aSaveInFlightFinishesBeforeItsStoreCloses() async throws {
        let folder = try TemporaryDirectory()
        let container = try Self.container(in: folder)
        container.persistentStoreDescriptions = []
        let coordinator = container.coordinator
        let slow = SlowSavingStore(try InMemoryStore.open(model: TravelModel.make()), delay: .milliseconds(400))
        let service = PersistentContainerService(container: container)
        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await service.run() }
                try coordinator.add(slow)
                async let saved: Void = Self.saveCity(named: "Kyoto", in: container)
                try await Self.eventually { slow.hasBegun }
                trigger.triggerGracefulShutdown()
                try await saved
                try await group.waitForAll()
            }
        }
        #expect(!slow.wasClosedMidSave, "Shutdown waited for the save in flight")
        #expect(slow.isClosed, "The store is closed after its save")
        #expect(coordinator.stores.isEmpty)
    }

    @Test func aSaveStillRunningAtTheDeadlineKeepsItsStoreAndFailsTheShutdown() async throws {
        let coordinator = try PersistentStoreCoordinator(model: TravelModel.make(), storeTypes: [])
        let slow = SlowSavingStore(heldUntilReleased: try InMemoryStore.open(model: TravelModel.make()))
        try coordinator.add(slow)
        let context = ManagedObjectContext(coordinator: coordinator, concurrencyType: .privateQueue)
        async let saved: Void = context.perform {
            let city = try context.insertNewObject(forEntityName: "City")
            try city.setValue(.string("Lima"), forKey: "name")
            try context.save()
        }
        try await Self.eventually { slow.hasBegun }
        let error = #expect(throws: StoreError.self) { try coordinator.removeAllStores(waitingUpTo: .milliseconds(50)) }
        #expect(error?.code == .inUse)
        #expect(error?.message.contains("after 0.05 seconds") == true, "\(error?.message ?? "")")
        slow.release()
        try await saved
        #expect(coordinator.stores.count == 1, "The busy store stays added")
        try coordinator.removeAllStores(waitingUpTo: .seconds(5))
        #expect(coordinator.stores.isEmpty)
    }
}
