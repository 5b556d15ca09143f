import Foundation
import Testing

@testable import Strata

/// Many contexts on one coordinator, from many tasks at once.
@Suite struct ContextConcurrencyTests {
    final class Entry: ManagedObject {
        override class var entityName: String { "Entry" }
        @Managed var worker: Int64
        @Managed var sequence: Int64
    }

    private static func coordinator() throws -> PersistentStoreCoordinator {
        let model = ManagedObjectModel {
            EntityDescription("Entry") {
                AttributeDescription("worker", .integer64)
                AttributeDescription("sequence", .integer64)
            }
            ConfigurationDescription("Even", entities: ["Entry"])
        }
        let coordinator = try PersistentStoreCoordinator(model: model)
        try coordinator.addStore(type: StoreType.inMemory.name)
        try coordinator.addStore(type: StoreType.inMemory.name, configuration: "Even")
        coordinator.register(Entry.self)
        return coordinator
    }

    @Test func eightTasksInsertAndFetchAtOnce() async throws {
        let coordinator = try Self.coordinator()
        let (workers, rounds) = (8, 25)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    let context = ManagedObjectContext(coordinator: coordinator, name: "worker \(worker)")
                    for round in 0..<rounds {
                        try await context.perform {
                            let entry = Entry(context: context)
                            entry.worker = Int64(worker)
                            entry.sequence = Int64(round)
                            if worker % 2 == 0, let even = coordinator.stores.last {
                                context.assign(entry, to: even)
                            }
                            try context.save()
                            var mine = FetchRequest<Entry>()
                            mine.predicate = try FetchPredicate(format: "worker == %@", Int64(worker))
                            let seen = try context.fetch(mine).map(\.sequence).sorted()
                            #expect(seen == Array(0...Int64(round)))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let reader = ManagedObjectContext(coordinator: coordinator)
        let total = try await reader.perform { try reader.count(for: FetchRequest<Entry>()) }
        #expect(total == workers * rounds)
        let perStore = try coordinator.stores.map { store in
            try store.execute(StoreFetchRequest(entityName: "Entry", resultType: .count))
        }
        #expect(perStore == [.count(workers / 2 * rounds), .count(workers / 2 * rounds)])
    }

    @Test func performReturnsValuesAndRethrows() async throws {
        let context = ManagedObjectContext(coordinator: try Self.coordinator())
        let id = try await context.perform {
            let entry = Entry(context: context)
            entry.sequence = 7
            try context.save()
            return entry.objectID
        }
        #expect(!id.isTemporary)
        await #expect(throws: ContextError.self) {
            try await context.perform { _ = try context.insertNewObject(forEntityName: "Missing") }
        }
        let nested = context.performAndWait { context.performAndWait { 42 } }
        #expect(nested == 42)
    }

    #if DEBUG
        @Test func usingAContextOffItsQueueStopsADebugBuild() async throws {
            let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = ManagedObjectContext(coordinator: try Self.coordinator(), name: "misused")
                _ = try context.insertNewObject(forEntityName: "Entry")
            }
            let message = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(message.contains("ManagedObjectContext 'misused' was used in"))
            #expect(message.contains("outside its queue; wrap the work in perform or performAndWait"))
        }
    #endif
}
