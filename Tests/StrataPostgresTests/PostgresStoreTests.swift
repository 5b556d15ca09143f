import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import StrataPostgres

/// A model of one entity with a string and an integer, for the PostgreSQL store's own tests.
enum PostgresTestModel {
    static let model = ManagedObjectModel {
        EntityDescription("Item") {
            AttributeDescription("name", .string)
            AttributeDescription("serial", .integer64)
        }
    }

    /// Opens the store in `schema` of `server` in a new coordinator.
    static func open(_ schema: String, on server: PostgresTestServer) throws -> (
        PersistentStoreCoordinator, any IncrementalStore
    ) {
        let coordinator = try PersistentStoreCoordinator(model: model, storeTypes: [.postgres])
        let store = try coordinator.addStore(.postgres(at: server.storeURL(schema: schema)))
        return (coordinator, store)
    }

    /// Saves one insert of an item per entry of `values` in one change set.
    static func insert(_ values: [(name: String, serial: Int64)], into store: any IncrementalStore) throws {
        let ids = try store.permanentIDs(forEntities: values.map { _ in "Item" })
        try store.save(
            StoreChangeSet(
                inserted: zip(ids, values).map { id, value in
                    .init(
                        objectID: id, values: ["name": .string(value.name), "serial": .integer64(value.serial)],
                        expectedVersion: 0)
                }))
    }

    /// The names of the items `format` matches, sorted.
    static func names(_ store: any IncrementalStore, _ format: String, _ arguments: [any PredicateArgument] = [])
        throws -> [String]
    {
        let request = StoreFetchRequest(
            entityName: "Item", predicate: try FetchPredicate(format: format, arguments: arguments))
        guard case .snapshots(let found) = try store.execute(request) else { return [] }
        return found.compactMap { snapshot -> String? in
            if case .string(let name)? = snapshot.values["name"] { return name }
            return nil
        }.sorted()
    }
}

/// The PostgreSQL store's behaviour beyond the conformance suite: values never become SQL,
/// passwords never reach messages, bad URLs are typed errors, and a server restart loses no
/// committed save and half-writes none.
@Suite struct PostgresStoreTests {
    @Test func valuesAndPatternsAreBoundNeverSpliced() throws {
        let server = try PostgresTestServer.shared.get()
        let (_, store) = try PostgresTestModel.open(PostgresTestServer.uniqueSchema(), on: server)
        let hostile = [
            "'); DROP TABLE \"Item\"; --", "\" OR 1=1 --", "100%", "100x", "a_b", "axb", "back\\slash", "$1",
        ]
        try PostgresTestModel.insert(hostile.enumerated().map { ($0.element, Int64($0.offset)) }, into: store)
        for name in hostile {
            #expect(try PostgresTestModel.names(store, "name == %@", [name]) == [name])
        }
        #expect(try PostgresTestModel.names(store, "name BEGINSWITH %@", ["100%"]) == ["100%"])
        #expect(try PostgresTestModel.names(store, "name CONTAINS %@", ["_"]) == ["a_b"])
        #expect(try PostgresTestModel.names(store, "name ENDSWITH %@", ["\\slash"]) == ["back\\slash"])
        let keyError = #expect(throws: (any Error).self) {
            try PostgresTestModel.names(store, "%K == 1", ["serial\" = 1 OR \"serial"])
        }
        #expect(keyError != nil)
        #expect(try store.execute(StoreFetchRequest(entityName: "Item", resultType: .count)) == .count(hostile.count))
    }

    @Test func passwordsNeverReachMessages() throws {
        let url = URL(string: "postgresql://strata:s3cret-word@127.0.0.1:1/postgres?schema=nowhere&connect_timeout=2")!
        let coordinator = try PersistentStoreCoordinator(model: PostgresTestModel.model, storeTypes: [.postgres])
        let error = #expect(throws: StoreError.self) { try coordinator.addStore(.postgres(at: url)) }
        #expect(error?.code == .io)
        #expect(error?.message.contains("s3cret-word") == false, "\(error?.message ?? "")")
        #expect(error?.message.contains("postgresql://strata@127.0.0.1:1/postgres") == true, "\(error?.message ?? "")")
    }

    @Test(arguments: [
        "file:///tmp/store.sqlite", "postgresql://strata@127.0.0.1/postgres?schema=",
        "postgresql://strata@127.0.0.1/postgres?schema=\(String(repeating: "s", count: 64))",
    ])
    func badURLsAreInvalidOptions(_ text: String) throws {
        let coordinator = try PersistentStoreCoordinator(model: PostgresTestModel.model, storeTypes: [.postgres])
        let error = #expect(throws: StoreError.self) { try coordinator.addStore(.postgres(at: URL(string: text)!)) }
        #expect(error?.code == .invalidOption)
    }

    /// A writer saves three items per save while the server is stopped (as a crash would stop
    /// it) and started again: saves during the outage fail with `io`, the store reconnects by
    /// itself, and every save is there whole or not at all, every acknowledged one there.
    @Test func aServerRestartLosesNoCommittedSaveAndHalfWritesNone() throws {
        let server = try PostgresTestServer.makeServer()
        let (_, store) = try PostgresTestModel.open("restart", on: server)
        let (_, idleStore) = try PostgresTestModel.open("restart", on: server)
        _ = try idleStore.execute(StoreFetchRequest(entityName: "Item", resultType: .count))
        let acknowledged = Locked<[Int64]>([])
        let failures = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            defer { done.signal() }
            var serial: Int64 = 0
            var afterRestart = 0
            while afterRestart < 20 && serial < 5_000 {
                serial += 1
                do {
                    try PostgresTestModel.insert([("a", serial), ("b", serial), ("c", serial)], into: store)
                    acknowledged.withLock { $0.append(serial) }
                    if !failures.withLock({ $0.isEmpty }) { afterRestart += 1 }
                } catch let error as StoreError where error.code == .io {
                    failures.withLock { $0.append(error.message) }
                    Thread.sleep(forTimeInterval: 0.05)
                } catch {
                    failures.withLock { $0.append("unexpected \(error)") }
                    return
                }
            }
        }
        while acknowledged.withLock({ $0.count }) < 20 { Thread.sleep(forTimeInterval: 0.01) }
        try server.stop()
        while failures.withLock({ $0.isEmpty }) { Thread.sleep(forTimeInterval: 0.01) }
        try server.restart()
        done.wait()
        #expect(failures.withLock { $0.allSatisfy { !$0.hasPrefix("unexpected") } }, "\(failures.withLock { $0 })")
        // A store whose pooled connection the restart closed reads at once, without an error.
        #expect(throws: Never.self) {
            _ = try idleStore.execute(StoreFetchRequest(entityName: "Item", resultType: .count))
        }
        let request = StoreFetchRequest(entityName: "Item")
        guard case .snapshots(let stored) = try store.execute(request) else { return }
        var itemsPerSerial: [Int64: Int] = [:]
        for snapshot in stored {
            if case .integer64(let serial)? = snapshot.values["serial"] { itemsPerSerial[serial, default: 0] += 1 }
        }
        #expect(itemsPerSerial.values.allSatisfy { $0 == 3 }, "A save was half written: \(itemsPerSerial)")
        let saved = acknowledged.withLock { $0 }
        #expect(saved.allSatisfy { itemsPerSerial[$0] == 3 }, "An acknowledged save is missing.")
        #expect(
            itemsPerSerial.count - saved.count <= 1, "More saves than acknowledged (one lost acknowledgement at most).")
        #expect(saved.count >= 40)
    }
}
