import Dispatch
import Foundation
import Strata
import StrataStores
import StrataTestSupport
import Synchronization
import Testing

/// Contexts on several threads share one query generation's read views while another context
/// saves: every pinned read sees the pinned state (run under the thread sanitizer by `make tsan`).
@Suite struct QueryGenerationConcurrencyTests {
    @Test(arguments: QueryGenerationTests.generationalTypes)
    func contextsOnManyThreadsShareOneGenerationWhileAWriterSaves(_ type: StoreType) throws {
        let folder = try TemporaryDirectory()
        let coordinator = try QueryGenerationTests.seeded(type, in: folder)
        let first = ManagedObjectContext(coordinator: coordinator)
        let cities = FetchRequest<ManagedObject>(entityName: "City")
        let token = try first.performAndWait { () throws in
            try first.setQueryGenerationFrom(.current)
            _ = try first.count(for: cities)
            return try #require(first.queryGenerationToken)
        }
        let writerDone = Atomic(false)
        let problems = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 5) { worker in
            let context = ManagedObjectContext(coordinator: coordinator)
            do {
                if worker == 0 {
                    defer { writerDone.store(true, ordering: .releasing) }
                    for index in 0..<20 {
                        try context.performAndWait {
                            try context.insertNewObject(forEntityName: "City").setValue(
                                .string("New \(index)"), forKey: "name")
                            try context.save()
                        }
                    }
                    return
                }
                try context.performAndWait { try context.setQueryGenerationFrom(token) }
                var reads = 0
                while !writerDone.load(ordering: .acquiring) || reads < 20 {
                    let names = try context.performAndWait {
                        context.reset()
                        try context.setQueryGenerationFrom(token)
                        return try context.fetch(cities).map { try $0.value(forKey: "name") }
                    }
                    if names.count != 2 {
                        problems.withLock { $0.append("Reader \(worker) saw \(names.count) cities: \(names).") }
                        return
                    }
                    reads += 1
                }
            } catch {
                problems.withLock { $0.append("Worker \(worker) failed: \(error).") }
            }
        }
        #expect(problems.withLock { $0 } == [])
        let unpinned = ManagedObjectContext(coordinator: coordinator)
        #expect(try unpinned.performAndWait { try unpinned.count(for: cities) } == 22)
    }
}
