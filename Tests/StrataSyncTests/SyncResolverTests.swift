import Foundation
import Strata
import StrataSQLite
import StrataSync
import StrataTestSupport
import StrataXML
import Testing

/// Resolvers per entity: the replica whose write lost to another made without seeing it is
/// shown the value before its write, its write and the other's, and what it keeps reaches every
/// replica; writes made after seeing the other's, and entities without a resolver, go by the
/// rules alone.
@Suite struct SyncResolverTests {
    /// Stock counts, which replicas add to and take from.
    static let model: ManagedObjectModel = {
        let model = try! SyncModel.replicaModel(
            for: ManagedObjectModel {
                EntityDescription("Item") {
                    AttributeDescription("name", .string)
                    AttributeDescription("count", .integer64, default: 0)
                }
            })
        try? model.freeze()
        return model
    }()

    /// A resolver that adds both replicas' changes of `count` to the value before them, noting
    /// each conflict it sees in `seen`.
    static func addingCounts(noting seen: Locked<[SyncConflict]>) -> SyncResolver {
        { conflict in
            seen.withLock { $0.append(conflict) }
            guard conflict.key == "count", case .attribute(.integer64(let local)) = conflict.local,
                case .attribute(.integer64(let remote)) = conflict.remote
            else { return nil }
            let base: Int64 = if case .attribute(.integer64(let base))? = conflict.base { base } else { 0 }
            return .attribute(.integer64(base + (local - base) + (remote - base)))
        }
    }

    static func item(of replica: SyncEngineTests.Replica) throws -> [AttributeValue] {
        let context = ManagedObjectContext(coordinator: replica.context.coordinator)
        return try context.performAndWait {
            let item = try SyncEngineTests.first("Item", in: context)
            return [try item.value(forKey: "name"), try item.value(forKey: "count")]
        }
    }

    @Test func concurrentChangesMeetInTheResolverOfTheReplicaWhoseWriteLost() async throws {
        let directory = try TemporaryDirectory()
        let hub = try SyncEngineTests.hub(in: directory)
        let seenBySQLite = Locked<[SyncConflict]>([])
        let seenByXML = Locked<[SyncConflict]>([])
        let sqlite = try SyncEngineTests.Replica(
            type: .sqlite, at: directory.file("a.sqlite"), hub: hub, model: Self.model,
            resolvers: ["Item": Self.addingCounts(noting: seenBySQLite)])
        let xml = try SyncEngineTests.Replica(
            type: .xml, at: directory.file("b.xml"), hub: hub, model: Self.model,
            resolvers: ["Item": Self.addingCounts(noting: seenByXML)])
        try sqlite.edit { context in
            _ = try SyncEngineTests.insert("Item", ["name": "bolts", "count": .integer64(10)], in: context)
        }
        try await sqlite.engine.syncNow()
        try await xml.engine.syncNow()

        // Apart: the SQLite replica adds 3 bolts and renames them; the XML replica, later by
        // its clock, adds 5 and renames them too.
        sqlite.wall.set(2_000)
        xml.wall.set(2_100)
        try sqlite.edit { context in
            let item = try SyncEngineTests.first("Item", in: context)
            try item.setValue(.integer64(13), forKey: "count")
            try item.setValue("hex bolts", forKey: "name")
        }
        try xml.edit { context in
            let item = try SyncEngineTests.first("Item", in: context)
            try item.setValue(.integer64(15), forKey: "count")
            try item.setValue("M6 bolts", forKey: "name")
        }
        try await sqlite.engine.syncNow()
        try await xml.engine.syncNow()
        #expect(seenByXML.withLock { $0 }.isEmpty, "the XML replica's writes won: nothing to resolve")
        let events = Task { [engine = sqlite.engine] () -> (SyncConflict, SyncValue)? in
            for await event in engine.events {
                if case .conflictResolved(let conflict, let kept) = event { return (conflict, kept) }
            }
            return nil
        }
        // Should no event come, the wait ends and the test fails instead of hanging.
        Task {
            try await Task.sleep(for: .seconds(30))
            events.cancel()
        }
        try await sqlite.engine.syncNow()
        let conflicts = seenBySQLite.withLock { $0 }.sorted { $0.key < $1.key }
        #expect(conflicts.map(\.key) == ["count", "name"])
        #expect(
            conflicts.first.map { [$0.base, $0.local, $0.remote] }
                == [.attribute(.integer64(10)), .attribute(.integer64(13)), .attribute(.integer64(15))])
        let resolved = await events.value
        #expect(resolved?.1 == .attribute(.integer64(18)))
        #expect(try Self.item(of: sqlite) == ["M6 bolts", .integer64(18)])

        // The kept count is the SQLite replica's own change, pushed at its next sync.
        try await sqlite.engine.syncNow()
        try await xml.engine.syncNow()
        #expect(try Self.item(of: xml) == ["M6 bolts", .integer64(18)])
        #expect(await sqlite.engine.resolvedObjects() == xml.engine.resolvedObjects())

        // A write made after seeing the other's is no conflict: the XML replica takes 8 out
        // of the 18 it saw, and the SQLite replica, which wrote 18, calls no resolver.
        xml.wall.set(3_000)
        try xml.edit { context in
            try SyncEngineTests.first("Item", in: context).setValue(.integer64(10), forKey: "count")
        }
        try await xml.engine.syncNow()
        try await sqlite.engine.syncNow()
        #expect(seenBySQLite.withLock { $0 }.count == 2)
        #expect(try Self.item(of: sqlite) == ["M6 bolts", .integer64(10)])
    }

    /// A hub in `directory` and `count` SQLite replicas with the adding resolver, each noting
    /// the conflicts it sees.
    private static func replicas(_ count: Int, in directory: TemporaryDirectory) throws -> (
        StoreHub, [(replica: SyncEngineTests.Replica, seen: Locked<[SyncConflict]>)]
    ) {
        let hub = try SyncEngineTests.hub(in: directory)
        let replicas = try (0..<count).map { index in
            let seen = Locked<[SyncConflict]>([])
            let replica = try SyncEngineTests.Replica(
                type: .sqlite, at: directory.file("\(index).sqlite"), hub: hub, model: model,
                resolvers: ["Item": addingCounts(noting: seen)])
            return (replica, seen)
        }
        return (hub, replicas)
    }

    private static func setCount(_ count: Int64, on replica: SyncEngineTests.Replica, at milliseconds: Int64) throws {
        replica.wall.set(milliseconds)
        try replica.edit { context in
            try SyncEngineTests.first("Item", in: context).setValue(.integer64(count), forKey: "count")
        }
    }

    @Test func theBaseIsTheValueBeforeTheFirstWriteTheOtherReplicaHadNotSeen() async throws {
        let directory = try TemporaryDirectory()
        let (_, replicas) = try Self.replicas(2, in: directory)
        let (a, b) = (replicas[0].replica, replicas[1].replica)
        try a.edit { context in
            _ = try SyncEngineTests.insert("Item", ["name": "nuts", "count": .integer64(10)], in: context)
        }
        try await a.engine.syncNow()
        try await b.engine.syncNow()
        // A adds 3, then 1 more, syncing each time; B, apart, adds 5, later by its clock.
        try Self.setCount(13, on: a, at: 2_000)
        try await a.engine.syncNow()
        try Self.setCount(14, on: a, at: 2_100)
        try await a.engine.syncNow()
        try Self.setCount(15, on: b, at: 2_200)
        try await b.engine.syncNow()
        try await a.engine.syncNow()
        let seen = replicas[0].seen.withLock { $0 }
        #expect(
            seen.map { [$0.base, $0.local, $0.remote] } == [
                [.attribute(.integer64(10)), .attribute(.integer64(14)), .attribute(.integer64(15))]
            ])
        #expect(try Self.item(of: a) == ["nuts", .integer64(19)])
        #expect(replicas[1].seen.withLock { $0 }.isEmpty)
    }

    @Test func aWriteThatSawAllOthersInTheSameBatchSettlesWithoutAResolver() async throws {
        let directory = try TemporaryDirectory()
        let (_, replicas) = try Self.replicas(3, in: directory)
        let (a, b, c) = (replicas[0].replica, replicas[1].replica, replicas[2].replica)
        try a.edit { context in
            _ = try SyncEngineTests.insert("Item", ["name": "nuts", "count": .integer64(10)], in: context)
        }
        for replica in [a, b, c] { try await replica.engine.syncNow() }
        // A writes 13; B, apart, writes 15 later by its clock; C, having seen both, writes 20.
        try Self.setCount(13, on: a, at: 2_000)
        try await a.engine.syncNow()
        try Self.setCount(15, on: b, at: 2_100)
        try await b.engine.syncNow()
        try await c.engine.syncNow()
        try Self.setCount(20, on: c, at: 2_200)
        try await c.engine.syncNow()
        // A pulls B's and C's writes in one batch: C's holds, and C had seen A's.
        try await a.engine.syncNow()
        #expect(replicas[0].seen.withLock { $0 }.isEmpty)
        #expect(try Self.item(of: a) == ["nuts", .integer64(20)])
    }

    @Test func aPushThatDoesNotSayWhatItSawResolvesNothingLoggedBefore() async throws {
        let directory = try TemporaryDirectory()
        let (hub, replicas) = try Self.replicas(1, in: directory)
        let a = replicas[0].replica
        try a.edit { context in
            _ = try SyncEngineTests.insert("Item", ["name": "nuts", "count": .integer64(10)], in: context)
        }
        try await a.engine.syncNow()
        try Self.setCount(13, on: a, at: 2_000)
        try await a.engine.syncNow()
        // A replica from before pushes said what they saw sets the count later by its clock.
        let item = try #require(await a.engine.resolvedObjects().keys.first)
        let old = ReplicaID.random()
        let stamp = SyncTimestamp(milliseconds: 3_000, counter: 0, replica: old)
        _ = try await hub.push(
            SyncPush(
                replica: old,
                operations: [
                    SyncOperation(
                        object: item, entity: "Item", stamp: stamp,
                        change: .set(key: "count", value: .attribute(.integer64(7))))
                ]))
        try await a.engine.syncNow()
        #expect(replicas[0].seen.withLock { $0 }.isEmpty)
        #expect(try Self.item(of: a) == ["nuts", .integer64(7)])
    }
}
