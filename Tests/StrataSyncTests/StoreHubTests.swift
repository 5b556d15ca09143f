import Foundation
import Strata
import StrataSQLite
import StrataTestSupport
import Testing

@testable import StrataSync

/// A hub kept in a SQLite store: its log takes each push once, in order, and gives each replica
/// the others' pushes after its cursor in batches bounded in bytes; it refuses pushes that are
/// empty, forged, too large or that name an object as another entity, and changes nothing then;
/// it carries on after being opened again.
@Suite struct StoreHubTests {
    static func openHub(at url: URL, pushByteLimit: Int = 8 << 20) throws -> StoreHub {
        let coordinator = try PersistentStoreCoordinator(model: SyncModel.hubModel(), storeTypes: [.sqlite])
        try coordinator.addStore(type: "SQLite", at: url)
        return try StoreHub(coordinator: coordinator, pushByteLimit: pushByteLimit)
    }

    /// A push of `count` insertions of books by `replica`, the first stamped at `milliseconds`.
    static func push(by replica: ReplicaID, at milliseconds: Int64, count: Int = 1, title: String = "Dune")
        -> SyncPush
    {
        let operations = (0..<count).flatMap { index in
            let object = GlobalID.random()
            let stamp = SyncTimestamp(milliseconds: milliseconds + Int64(index), counter: 0, replica: replica)
            return [
                SyncOperation(object: object, entity: "Book", stamp: stamp, change: .insert),
                SyncOperation(
                    object: object, entity: "Book", stamp: stamp,
                    change: .set(key: "title", value: .attribute(.string(title)))),
            ]
        }
        return SyncPush(replica: replica, operations: operations)
    }

    @Test func aPullGivesTheOtherReplicasPushesInOrderAndMovesPastTheReplicasOwn() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.openHub(at: directory.file("hub.sqlite"))
        let (a, b) = (ReplicaID.random(), ReplicaID.random())
        let first = Self.push(by: a, at: 1_000)
        let second = Self.push(by: b, at: 2_000)
        let third = Self.push(by: a, at: 3_000)
        for (number, push) in [first, second, third].enumerated() {
            let receipt = try await hub.push(push)
            #expect(receipt == PushReceipt(sequence: Int64(number + 1), wasDuplicate: false))
        }

        let forB = try await hub.pull(after: 0, for: b, byteLimit: 1 << 20)
        #expect(forB.entries.map(\.push) == [first, third])
        #expect(forB.entries.map(\.sequence) == [1, 3])
        #expect(forB.cursor == 3)
        #expect(forB.isComplete)
        // A's own pushes are not sent back, and its cursor still reaches the end of the log.
        let forA = try await hub.pull(after: 1, for: a, byteLimit: 1 << 20)
        #expect(forA.entries.map(\.push) == [second])
        #expect(forA.cursor == 3)
        let nothing = try await hub.pull(after: 3, for: a, byteLimit: 1 << 20)
        #expect(nothing.entries.isEmpty && nothing.cursor == 3 && nothing.isComplete)
        #expect(await hub.resolvedObjects().count == 3)
    }

    @Test func aPushSentAgainIsAcknowledgedWithItsFirstReceiptAndAppliesOnce() async throws {
        let directory = try TemporaryDirectory()
        let url = directory.file("hub.sqlite")
        let replica = ReplicaID.random()
        let push = Self.push(by: replica, at: 1_000)
        do {
            let hub = try Self.openHub(at: url)
            #expect(try await hub.push(push) == PushReceipt(sequence: 1, wasDuplicate: false))
            #expect(try await hub.push(push) == PushReceipt(sequence: 1, wasDuplicate: true))
        }
        // After the hub is opened again too.
        let hub = try Self.openHub(at: url)
        #expect(try await hub.push(push) == PushReceipt(sequence: 1, wasDuplicate: true))
        #expect(await hub.lastSequence == 1)
        let next = Self.push(by: replica, at: 2_000)
        #expect(try await hub.push(next) == PushReceipt(sequence: 2, wasDuplicate: false))
        let all = try await hub.pull(after: 0, for: .random(), byteLimit: 1 << 20)
        #expect(all.entries.map(\.push) == [push, next])
        #expect(await hub.resolvedObjects().count == 2)

        // The same ID with other operations is refused.
        var replayed = Self.push(by: replica, at: 9_000)
        replayed.id = push.id
        let replay = await #expect(throws: SyncError.self) { try await hub.push(replayed) }
        #expect(replay?.code == .pushReplayed)

        // Another replica reusing the push's ID is refused.
        var stolen = Self.push(by: .random(), at: 3_000)
        stolen.id = push.id
        let error = await #expect(throws: SyncError.self) { try await hub.push(stolen) }
        #expect(error?.code == .forgedReplica)
    }

    @Test func refusedPushesChangeNothing() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.openHub(at: directory.file("hub.sqlite"), pushByteLimit: 4_096)
        let replica = ReplicaID.random()
        let accepted = Self.push(by: replica, at: 1_000)
        _ = try await hub.push(accepted)
        let book = accepted.operations[0].object

        var forged = Self.push(by: replica, at: 2_000)
        forged.operations.append(
            SyncOperation(
                object: .random(), entity: "Book",
                stamp: SyncTimestamp(milliseconds: 2_000, counter: 0, replica: .random()), change: .insert))
        let stamp = SyncTimestamp(milliseconds: 3_000, counter: 0, replica: replica)
        let mismatch = SyncPush(
            replica: replica,
            operations: [
                SyncOperation(object: .random(), entity: "Book", stamp: stamp, change: .insert),
                SyncOperation(object: book, entity: "Author", stamp: stamp, change: .insert),
            ])
        let newObject = GlobalID.random()
        let twoEntities = SyncPush(
            replica: replica,
            operations: [
                SyncOperation(object: newObject, entity: "Book", stamp: stamp, change: .insert),
                SyncOperation(object: newObject, entity: "Author", stamp: stamp, change: .delete),
            ])
        let future = SyncPush(
            replica: replica,
            operations: [
                SyncOperation(
                    object: .random(), entity: "Book",
                    stamp: SyncTimestamp(milliseconds: .max, counter: 0, replica: replica), change: .insert)
            ])
        let syncEntity = SyncPush(
            replica: replica,
            operations: [SyncOperation(object: .random(), entity: "StrataSyncReplica", stamp: stamp, change: .insert)])
        let localID = try #require(ObjectID(uriString: "x-strata://B3F1E2D4-0000-4000-8000-000000000001/Book/p7"))
        let storeObjectID = SyncPush(
            replica: replica,
            operations: [
                SyncOperation(
                    object: book, entity: "Book", stamp: stamp,
                    change: .set(key: "twin", value: .attribute(.objectID(localID))))
            ])
        let refused: [(SyncPush, SyncError.Code)] = [
            (SyncPush(replica: replica, operations: []), .malformedPush),
            (forged, .forgedReplica),
            (Self.push(by: replica, at: 4_000, count: 100), .pushTooLarge),
            (mismatch, .entityMismatch),
            (twoEntities, .entityMismatch),
            (future, .clockDrift),
            (syncEntity, .malformedPush),
            (storeObjectID, .malformedPush),
        ]
        for (push, code) in refused {
            let error = await #expect(throws: SyncError.self) { try await hub.push(push) }
            #expect(error?.code == code)
        }
        #expect(await hub.lastSequence == 1)
        let log = try await hub.pull(after: 0, for: .random(), byteLimit: 1 << 20)
        #expect(log.entries.map(\.push) == [accepted])
        #expect(await hub.resolvedObjects().keys.sorted() == [book])
    }

    @Test func whatAPushSawTravelsWithItBoundedByTheLogAndDoesNotMakeAPushAnother() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.openHub(at: directory.file("hub.sqlite"))
        let first = Self.push(by: .random(), at: 1_000)
        var second = Self.push(by: .random(), at: 2_000)
        second.seen = 1
        for push in [first, second] { _ = try await hub.push(push) }
        let log = try await hub.pull(after: 0, for: .random(), byteLimit: 1 << 20)
        #expect(log.entries.map(\.push) == [first, second])
        #expect(log.entries.map(\.push.seen) == [nil, 1])
        // Said to have seen past the log's end (pulled from another copy of the hub), it saw
        // the end; sent again saying what it saw, a push taken without it is a duplicate.
        var ahead = Self.push(by: .random(), at: 3_000)
        ahead.seen = 99
        #expect(try await hub.push(ahead).sequence == 3)
        let last = try await hub.pull(after: 2, for: .random(), byteLimit: 1 << 20)
        #expect(last.entries.map(\.push.seen) == [2])
        var resent = first
        resent.seen = 0
        #expect(try await hub.push(resent) == PushReceipt(sequence: 1, wasDuplicate: true))
        #expect(try JSONDecoder().decode(SyncPush.self, from: JSONEncoder().encode(second)).seen == 1)
    }

    @Test func pullsAreBoundedInBytesAndTakeAtLeastOnePush() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.openHub(at: directory.file("hub.sqlite"))
        let replica = ReplicaID.random()
        var pushes: [SyncPush] = []
        for index in 0..<5 {
            let push = Self.push(by: replica, at: 1_000 * Int64(index + 1), count: 3)
            pushes.append(push)
            _ = try await hub.push(push)
        }
        // Bounded by the bytes the hub keeps each push's operations in.
        let size = PushPayload(seen: nil, operations: pushes[0].operations).binaryData().count
        var cursor: Int64 = 0
        var pulled: [SyncPush] = []
        var batches = 0
        while true {
            let batch = try await hub.pull(after: cursor, for: .random(), byteLimit: size * 2 + 1)
            #expect(!batch.entries.isEmpty || batch.isComplete)
            #expect(batch.entries.count <= 2)
            pulled += batch.entries.map(\.push)
            cursor = batch.cursor
            batches += 1
            if batch.isComplete { break }
        }
        #expect(pulled == pushes)
        #expect(batches == 3)
        // A limit smaller than one push still brings one.
        let tiny = try await hub.pull(after: 0, for: .random(), byteLimit: 1)
        #expect(tiny.entries.map(\.push) == [pushes[0]])
        #expect(tiny.cursor == 1 && !tiny.isComplete)
    }

    @Test func headsAnnounceEachNewPush() async throws {
        let directory = try TemporaryDirectory()
        let hub = try Self.openHub(at: directory.file("hub.sqlite"))
        let heads = await hub.heads()
        var iterator = heads.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        _ = try await hub.push(Self.push(by: .random(), at: 1_000))
        #expect(await iterator.next() == 1)
    }

    @Test func aHubWithoutTheLogEntitiesIsRefused() throws {
        let directory = try TemporaryDirectory()
        let coordinator = try PersistentStoreCoordinator(
            model: ManagedObjectModel { EntityDescription("Book") { AttributeDescription("title", .string) } },
            storeTypes: [.sqlite])
        try coordinator.addStore(type: "SQLite", at: directory.file("hub.sqlite"))
        let error = #expect(throws: SyncError.self) { try StoreHub(coordinator: coordinator) }
        #expect(error?.code == .unsupportedStore)
    }
}
