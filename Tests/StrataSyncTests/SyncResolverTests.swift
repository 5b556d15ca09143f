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
}
